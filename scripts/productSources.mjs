// The server's product code as the house-rule scripts read it: every `.ts` file under apps/server/src except tests
// (`*.test.ts`) and test helpers (anything under a `testing/` folder).
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './setup.mjs';

export const SOURCE = join(root, 'apps/server/src');

export const isTestCode = (path) => /\.test\.ts$/.test(path) || path.split('/').includes('testing');

/** Absolute paths of the product files under `dir` (default: the whole server source). */
export function* productSources(dir = SOURCE) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* productSources(path);
    else if (entry.name.endsWith('.ts') && !isTestCode(relative(SOURCE, path))) yield path;
  }
}
