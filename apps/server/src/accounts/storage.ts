import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Bytes the account's customer databases take on disk: every file (database, WAL, shared memory) in
 * `<dataDir>/databases/<accountId>/`, the layout the data catalog writes. No folder yet is 0.
 */
export function accountStorageBytes(dataDir: string, accountId: number): number {
  const folder = join(dataDir, 'databases', String(accountId));
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return 0;
  }
  let total = 0;
  for (const name of names) {
    try {
      const info = statSync(join(folder, name));
      if (info.isFile()) total += info.size;
    } catch {
      // A file deleted between listing and stat no longer takes space.
    }
  }
  return total;
}
