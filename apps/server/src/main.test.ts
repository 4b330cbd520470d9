import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer } from './testing/serverProcess';

describe('the first start', () => {
  let dir = '';
  let server: ServerProcess | null = null;
  afterEach(async () => {
    await server?.stop();
    server = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never prints secrets the operator supplied, and names where they came from', async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-main-'));
    const password = 'operator-chosen-password-42';
    const apiKey = `1/${'ab'.repeat(20)}`;
    server = spawnServer({
      SVC_DATA_DIR: dir,
      SVC_SECRET: 'a-test-secret-of-some-length',
      SVC_ADMIN_EMAIL: 'ops@example.test',
      SVC_ADMIN_PASSWORD: password,
      SVC_ADMIN_API_KEY: apiKey,
    });
    await server.waitFor(/"msg":"listening"/);
    const output = server.output();
    expect(output).toContain('ops@example.test');
    expect(output).not.toContain(password);
    expect(output).not.toContain('ab'.repeat(20));
    expect(output).toContain('as given in SVC_ADMIN_PASSWORD');
    expect(output).toContain('as given in SVC_ADMIN_API_KEY');
    // The write-only key is generated, so it is shown once.
    expect(output).toMatch(/Write-only API key +\d+\/[0-9a-f]{40}/);
  }, 30_000);
});
