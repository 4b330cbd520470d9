// A private, throwaway PostgreSQL server for the tests of the data-warehouse sync.
//
//   node scripts/postgres.mjs start [--durable] → prints one JSON line {url, dir, port, pid} and leaves the server running
//   node scripts/postgres.mjs stop DIR → stops the server whose data directory is DIR and removes DIR
//
// Installs Debian's `postgresql` with apt-get when initdb is missing (as root, or with `sudo -n`). The cluster
// lives in a fresh folder under the OS temp dir, listens on a free loopback port only, keeps its socket in its
// own folder, and asks TCP clients for a password (scram-sha-256), so a wrong password really fails. PostgreSQL
// refuses to run as root: when we are root, initdb and pg_ctl run as the `postgres` system user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUPERUSER = 'svc_test';
export const SUPERUSER_PASSWORD = 'svc-test-pg-password';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function log(msg) {
  process.stderr.write(`\x1b[36m[postgres]\x1b[0m ${msg}\n`);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    const why = r.error ? r.error.message : `exit code ${r.status}: ${(r.stderr || r.stdout || '').trim().slice(-800)}`;
    throw new Error(`"${cmd} ${args.join(' ')}" failed (${why}).`);
  }
  return r.stdout;
}

/** The folder of Debian's server binaries (initdb, pg_ctl), newest major first; null when not installed. */
export function binDir() {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const majors = readdirSync(base)
      .filter((d) => /^\d+$/.test(d) && existsSync(join(base, d, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length > 0) return join(base, majors[0], 'bin');
  }
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    return onPath ? join(onPath, '..') : null;
  } catch {
    return null;
  }
}

/** Installs Debian's PostgreSQL when its binaries are missing. */
export function ensureInstalled() {
  if (binDir()) return;
  log("installing Debian's postgresql for the data-warehouse sync tests");
  const sudo = isRoot ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => run(sudo[0] ?? 'apt-get', sudo.length ? [...sudo.slice(1), 'apt-get', ...args] : args, { env });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', 'postgresql']);
  if (!binDir()) throw new Error('apt-get installed postgresql but initdb is still missing.');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary as the `postgres` user when we are root, as ourselves otherwise. */
function asOwner(bin, args) {
  const path = join(binDir(), bin);
  return isRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

/**
 * Creates and starts a private cluster; returns its connection URL (superuser with a password). For tests it
 * does not wait for the disk (fsync and synchronous commit off); `durable` keeps PostgreSQL's defaults, as
 * the benchmarks need to compare with SQLite's synced writes.
 */
export async function startPostgres({ durable = false } = {}) {
  ensureInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`);
  if (isRoot) {
    const uid = Number(run('id', ['-u', 'postgres']).trim());
    const gid = Number(run('id', ['-g', 'postgres']).trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(dir, 0o700);
  asOwner('initdb', [
    '-D',
    data,
    '-U',
    SUPERUSER,
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  const fast = durable ? '' : ' -c fsync=off -c full_page_writes=off -c synchronous_commit=off';
  const options = `-c listen_addresses=127.0.0.1 -c max_connections=300 -p ${port} -k ${dir}${fast}`;
  asOwner('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const url = `postgres://${SUPERUSER}:${SUPERUSER_PASSWORD}@127.0.0.1:${port}/postgres`;
  return { url, dir, port };
}

/** Stops the cluster in `dir` (fast shutdown) and removes its folder. */
export function stopPostgres(dir) {
  const data = join(dir, 'data');
  if (existsSync(join(data, 'postmaster.pid'))) {
    try {
      asOwner('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    } catch (err) {
      log(`could not stop the server in ${dir}: ${err.message}`);
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, arg] = process.argv.slice(2);
  try {
    if (command === 'start') {
      process.stdout.write(`${JSON.stringify(await startPostgres({ durable: arg === '--durable' }))}\n`);
    } else if (command === 'stop' && arg) {
      stopPostgres(arg);
    } else {
      process.stderr.write('usage: node scripts/postgres.mjs start | stop <dir>\n');
      process.exit(2);
    }
  } catch (err) {
    process.stderr.write(`\x1b[31m[postgres]\x1b[0m ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
