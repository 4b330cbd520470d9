import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The one rule for what the service writes under its data folder (and temporary files beside it): readable
 * and writable by the service's own user only. Data files, the secret and result files are 600, folders 700.
 * Every place that creates a file or folder there passes these modes (or calls the helpers below); the
 * server also sets its umask to 077 at start-up, so files that libraries create for it (SQLite's WAL and
 * shared-memory files, an embedded engine's files) and its child processes' files get the same modes.
 */
export const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Makes a folder (and its missing parents) with `DIR_MODE`. */
export function makeDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: DIR_MODE });
}

/** Makes a folder (and its missing parents) with `DIR_MODE`, without blocking the event loop. */
export async function makeDirAsync(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE });
}

/** Creates an empty file with `FILE_MODE` if there is none, so a library that opens it later keeps the mode. */
export function touchFile(path: string): void {
  closeSync(openSync(path, 'a', FILE_MODE));
}

/** From now on every file and folder this process (and its children) creates is for its own user only. */
export function restrictNewFiles(): void {
  process.umask(0o077);
}

/**
 * Brings what is already under `root` to the rule (a data folder from an older version, or copied in with
 * other modes): folders to `DIR_MODE`, files to `FILE_MODE`. Symbolic links are left alone. Returns how many
 * entries it changed.
 */
export function restrictDataTree(root: string): number {
  let changed = 0;
  const fix = (path: string, mode: number) => {
    if ((statSync(path).mode & 0o777) !== mode) {
      chmodSync(path, mode);
      changed++;
    }
  };
  const walk = (dir: string) => {
    fix(dir, DIR_MODE);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) fix(path, FILE_MODE);
    }
  };
  walk(root);
  return changed;
}
