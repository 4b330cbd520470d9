// `pnpm run envdocs`: every setting the server reads from the environment (`SVC_…`, outside tests and test
// helpers) has a row in the README's "Configure" table, so the table cannot fall behind the code.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { productSources } from './productSources.mjs';
import { root } from './setup.mjs';

const read = new Map();
for (const file of productSources()) {
  for (const [name] of readFileSync(file, 'utf8').matchAll(/\bSVC_[A-Z0-9_]+\b/g)) {
    if (!read.has(name)) read.set(name, relative(root, file));
  }
}

// The rows of the table: a line starting with `|` that names the variable in backticks in its first cell.
const documented = new Set();
for (const line of readFileSync(join(root, 'README.md'), 'utf8').split('\n')) {
  if (!line.startsWith('|')) continue;
  for (const [, name] of (line.split('|')[1] ?? '').matchAll(/`(SVC_[A-Z0-9_]+)`/g)) documented.add(name);
}

const missing = [...read].filter(([name]) => !documented.has(name));
if (missing.length > 0) {
  for (const [name, file] of missing)
    console.error(`[envdocs] ${name} is read in ${file} but has no row in README.md's Configure table`);
  process.exit(1);
}
console.log(`[envdocs] ${read.size} settings read by the server, each documented in the README`);
