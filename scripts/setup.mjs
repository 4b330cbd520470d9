// Installs everything the project needs on a machine that has only Node and npm:
// pnpm (when missing), the workspace's packages (native ones built against local Node headers),
// and, when asked, Debian's Chromium for the browser tests. Used by `npm start` and `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '12.21.0';

function log(msg) {
  process.stdout.write(`\x1b[36m[setup]\x1b[0m ${msg}\n`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit code ${r.status}`;
    throw new Error(`"${cmd} ${args.join(' ')}" failed (${why}).`);
  }
}

function works(cmd, args) {
  try {
    return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    throw new Error(`Node ${process.versions.node} is too old: install Node 20.19 or newer.`);
  }
}

/** pnpm from PATH when it is major 12, otherwise a copy installed into .tools/ (no root needed). */
export function pnpmCommand() {
  const onPath = works('pnpm', ['--version']);
  if (onPath?.startsWith('12.')) return 'pnpm';
  const local = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
  if (!existsSync(local)) {
    log(`installing pnpm ${PNPM_VERSION} into .tools/`);
    run('npm', ['install', '--prefix', join(root, '.tools'), '--no-save', '--no-package-lock', `pnpm@${PNPM_VERSION}`]);
  }
  // Scripts call `pnpm` by name (recursive runs, the browser tests' server): put this copy first on PATH.
  process.env.PATH = `${dirname(local)}${delimiter}${process.env.PATH ?? ''}`;
  return local;
}

/** Native addons cannot download Node headers here; build against the local ones when present. */
export function installEnv() {
  const env = { ...process.env };
  if (existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  return env;
}

export function installPackages(pnpm) {
  log('installing packages');
  run(pnpm, ['install', '--frozen-lockfile'], { env: installEnv() });
}

export function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  log("installing Debian's Chromium for the browser tests");
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = asRoot ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) =>
    sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args], { env }) : run('apt-get', args, { env });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', 'chromium']);
}

/** Runs a script's body, turning a failure into one readable line and a non-zero exit. */
export function main(body) {
  try {
    body();
  } catch (err) {
    process.stderr.write(`\n\x1b[31m[error]\x1b[0m ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

export function setup({ browser = false } = {}) {
  checkNode();
  const pnpm = pnpmCommand();
  installPackages(pnpm);
  if (browser) ensureChromium();
  return pnpm;
}
