// `pnpm run registries`: services live in one composition root (apps/server/src/compose.ts and nodeServices.ts,
// decision 0051), not in modules. Product code (tests and test helpers aside) may not keep state of its own at
// module level: a `WeakMap`/`WeakSet` (state hung on another object, an app's or a node's), a `Map`/`Set` made
// empty to be filled at run time, or a module-level `let` holding one. Constant tables (`new Set(['a', 'b'])`)
// are fine. The few exceptions are listed below, each with the reason it is not a service.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { productSources, SOURCE } from './productSources.mjs';

/** The composition root itself: it builds the services. */
const ROOT = new Set(['compose.ts', 'nodeServices.ts']);

/** `file:name` → why it may stay. A stale entry (nothing found under it) is an error too. */
const ALLOWED = {
  // Pure memos of parsed text: the same input gives the same value in every app, and nothing is held open.
  'jobs/query/timeZones.ts:zones': 'memo of IANA zones parsed by name',
  'jobs/query/sqlFunctions.ts:regexps': 'memo of compiled regular expressions by pattern',
  'jobs/query/timeFormats.ts:javaCache': 'memo of parsed Java date formats',
  'jobs/query/timeFormats.ts:mysqlParsers': 'memo of parsed MySQL date formats',
  'platform/schedule.ts:formats': 'memo of Intl.DateTimeFormat by time zone',
  'platform/regexp.ts:compiled': 'memo of compiled RE2 patterns',
  'platform/storage/sqlite.ts:placeholders': 'memo of SQL text rewritten for SQLite',
  'platform/storage/regexpSets.ts:orbits': 'Unicode case-folding table, built once when first needed',
  'data/columns.ts:knownColumns': 'memo of record keys mapped to column names (bounded)',
  // Marks on a native connection, which holds no service: a connection is set up once, whoever opened it.
  'jobs/query/duckdb/functions.ts:registered': 'DuckDB connections whose functions are registered',
  'platform/duckSettings.ts:sandboxed': 'DuckDB connections already sandboxed',
  // Per process or thread by nature, not per app: two apps in one process share the file.
  'data/duckFiles.ts:files':
    "this thread's open DuckDB files: DuckDB allows one instance per file per process, whichever app asks",
  'platform/storage/locks.ts:perFile':
    "a SQLite file's lock queues: one process serves the file, and two storages of one file must share them",
};

// At column 0 only: module level (a function's locals are indented).
const HELD = [
  /^(?:export )?(?:const|let) (\w+)\b[^=]*= new Weak(?:Map|Set)\b/,
  /^(?:export )?(?:const|let) (\w+)\b[^=]*= new (?:Map|Set)\b(?:<.*>)?\(\s*\)/,
  /^(?:export )?let (\w+)\s*:[^=]*\b(?:Weak)?(?:Map|Set)\b/,
];

const problems = [];
const found = new Set();
let files = 0;
for (const file of productSources()) {
  const path = relative(SOURCE, file);
  if (ROOT.has(path)) continue;
  files++;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      for (const pattern of HELD) {
        const m = pattern.exec(line);
        if (!m) continue;
        const key = `${path}:${m[1]}`;
        found.add(key);
        if (!ALLOWED[key]) {
          problems.push(
            `apps/server/src/${path}:${i + 1}: module-level ${m[1]} keeps state; build it in compose.ts and hand it over`,
          );
        }
        break;
      }
    });
}
for (const key of Object.keys(ALLOWED)) {
  if (!found.has(key)) problems.push(`${key} is allowed in scripts/registries.mjs but no longer found: remove it`);
}

if (problems.length > 0) {
  for (const p of problems) console.error(`[registries] ${p}`);
  console.error(`[registries] ${problems.length} problems: services are built by the composition root (decision 0051)`);
  process.exit(1);
}
console.log(
  `[registries] ${files} files: no module-level registry outside the composition root (${Object.keys(ALLOWED).length} allowed)`,
);
