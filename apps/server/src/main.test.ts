import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the real server (`npm start`'s entry) on an empty data folder and returns its output up to "listening". */
function firstStart(env: Record<string, string>): { child: ChildProcess; output: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', SVC_JOURNEY_ENGINE_INTERVAL_SECONDS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = new Promise<string>((done, fail) => {
    let text = '';
    const collect = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('"listening"')) done(text);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.on('exit', (code) => fail(new Error(`the server exited (${code}) before listening:\n${text}`)));
  });
  return { child, output };
}

describe('the first start', () => {
  let dir = '';
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child?.on('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    child = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never prints secrets the operator supplied, and names where they came from', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-main-'));
    const password = 'operator-chosen-password-42';
    const apiKey = `1/${'ab'.repeat(20)}`;
    const started = firstStart({
      SVC_DATA_DIR: dir,
      SVC_SECRET: 'a-test-secret-of-some-length',
      SVC_ADMIN_EMAIL: 'ops@example.test',
      SVC_ADMIN_PASSWORD: password,
      SVC_ADMIN_API_KEY: apiKey,
    });
    child = started.child;
    const output = await started.output;
    expect(output).toContain('ops@example.test');
    expect(output).not.toContain(password);
    expect(output).not.toContain('ab'.repeat(20));
    expect(output).toContain('as given in SVC_ADMIN_PASSWORD');
    expect(output).toContain('as given in SVC_ADMIN_API_KEY');
    // The write-only key is generated, so it is shown once.
    expect(output).toMatch(/Write-only API key +\d+\/[0-9a-f]{40}/);
  }, 30_000);
});
