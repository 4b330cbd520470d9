// `pnpm run dupes`: no new copied code. jscpd finds the clones (50 tokens and 5 lines or more) in the sources
// (a run of import statements alone does not count); a clone fails the check when either copy overlaps lines
// changed since the branch left main (on main itself: the lines of its last commit or merge). Older clones are counted, not refused: each is fixed when its code
// is next changed, since touching it makes it "changed".
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { root } from './setup.mjs';

// jscpd's ESM build imports `colors/safe` without an extension, which Node refuses: load its CommonJS build.
const { detectClonesAndStatistic } = createRequire(import.meta.url)('jscpd');

const SOURCES = ['apps/server/src', 'apps/server/bench', 'apps/console/src', 'packages', 'e2e/tests'];

const git = (...args) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return null;
  }
};

/** The commit the changes are counted from: where this branch left main, or main's previous commit. */
function base() {
  const head = git('rev-parse', 'HEAD');
  for (const ref of ['origin/main', 'main']) {
    const mb = tryGit('merge-base', 'HEAD', ref);
    if (mb && mb !== head) return mb;
  }
  return tryGit('rev-parse', 'HEAD^1');
}

/** Changed line ranges per file (new side), from `git diff -U0` hunk headers, including uncommitted edits. */
function changedLines(from) {
  const changed = new Map();
  if (!from) return changed;
  let file = null;
  for (const line of git('diff', '-U0', '--no-color', '--no-ext-diff', from, '--', ...SOURCES).split('\n')) {
    if (line.startsWith('+++ ')) file = line === '+++ /dev/null' ? null : line.slice(6);
    const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (hunk && file) {
      const start = Number(hunk[1]);
      const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
      if (count > 0) changed.set(file, [...(changed.get(file) ?? []), [start, start + count - 1]]);
    }
  }
  return changed;
}

const from = base();
const changed = changedLines(from);
const touches = (side) =>
  (changed.get(side.sourceId) ?? []).some(([a, b]) => a <= side.end.line && side.start.line <= b);

const started = Date.now();
const { clones, statistic } = await detectClonesAndStatistic({
  path: SOURCES.map((p) => `${root}/${p}`),
  format: ['typescript', 'tsx', 'javascript'],
  ignore: ['**/node_modules/**', '**/dist/**', '**/*.d.ts'],
  minTokens: 50,
  minLines: 5,
  silent: true,
  absolute: false,
  gitignore: true,
  reporters: [],
});
const relative = (side) => ({ ...side, sourceId: side.sourceId.replace(`${root}/`, '') });

/**
 * Whether lines start..end of a file are all inside import statements: two files importing the same things
 * share no code worth a module.
 */
function importsOnly(side) {
  const lines = readFileSync(`${root}/${side.sourceId}`, 'utf8').split('\n');
  let inImport = false;
  for (let n = 1; n <= side.end.line; n++) {
    const line = lines[n - 1] ?? '';
    const starts = !inImport && /^import\b/.test(line);
    if (starts) inImport = true;
    if (n >= side.start.line && !inImport && line.trim() !== '') return false;
    if (inImport && /(^|\s)from\s+['"][^'"]+['"];?\s*$|^import\s+['"][^'"]+['"];?\s*$/.test(line)) inImport = false;
  }
  return true;
}

const fresh = clones
  .map((c) => ({ a: relative(c.duplicationA), b: relative(c.duplicationB) }))
  .filter(({ a, b }) => (touches(a) || touches(b)) && !(importsOnly(a) && importsOnly(b)));

const where = (s) => `${s.sourceId}:${s.start.line}-${s.end.line}`;
for (const { a, b } of fresh) {
  process.stdout.write(`  error duplicate: ${where(a)} repeats ${where(b)}\n`);
}
if (fresh.length > 0) {
  process.stdout.write(
    '\n  Keep one copy: move it to a shared module (platform/, lib/, a package, or a testing/ helper) and import it.\n',
  );
}
const total = statistic.total;
process.stdout.write(
  `\n[dupes] ${total.sources} files in ${Math.round((Date.now() - started) / 100) / 10} s: ${clones.length} clones ` +
    `(${total.percentage}% of lines) in all, ${fresh.length} in the lines changed since ${from ? from.slice(0, 10) : 'nothing'}\n`,
);
process.exitCode = fresh.length > 0 ? 1 : 0;
