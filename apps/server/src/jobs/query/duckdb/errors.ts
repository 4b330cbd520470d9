/**
 * A DuckDB error as a query job's user reads it. DuckDB's message is written for the SQL it ran, which is the
 * translation of the user's query: it starts with the error's class ("Binder Error: "), ends with that SQL
 * ("LINE 1: SELECT "nope" FROM "events"" and a caret under it), and its suggestions may name the engine's
 * own catalog ("Did you mean "pg_enum"?"), the service's tables, or names nowhere near what was written. The
 * job's error keeps the first sentence, in the words SQLite uses for the errors people meet most (which the
 * console reads to mark the place in the query, and which the job's table hint extends, queryErrors.ts), and
 * only the suggestions that name the user's own tables and columns and are close to what was written.
 */

/** Names that belong to the engine or the service, never suggested. */
const INTERNAL = /^(pg_|duckdb_|sqlite_|information_schema|_svc\$)/i;

/** The quoted names of a suggestion line (`Did you mean "events"?`, `Candidate bindings: "a", "b"`). */
function suggested(line: string | undefined): string[] {
  if (!line) return [];
  const names = [...line.matchAll(/"((?:[^"]|"")+)"/g)].map((m) => (m[1] as string).replace(/""/g, '"'));
  return names.filter((name) => !INTERNAL.test(name) && !name.includes('$'));
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/** At most three of `names` that are a typo away from `written` (a qualifier is not compared). */
function near(written: string, names: string[]): string[] {
  const limit = Math.max(2, Math.floor(written.length / 3));
  const bare = (name: string) => (name.split('.').pop() ?? name).toLowerCase();
  return names.filter((name) => distance(written.toLowerCase(), bare(name)) <= limit).slice(0, 3);
}

function didYouMean(names: string[]): string {
  if (names.length === 0) return '';
  const quoted = names.map((n) => `"${n}"`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return ` (did you mean ${list}?)`;
}

/** The suggestions of a following line that starts with `label`, close to `written`. */
const hint = (written: string, next: string | undefined, label: RegExp) =>
  didYouMean(label.test(next ?? '') ? near(written, suggested(next)) : []);

/** A token as the translation wrote it, as the user did: `"ORDR"` (a word it quoted) is ORDR. */
const unquoted = (token: string) => (/^"(.*)"$/.test(token) ? token.slice(1, -1).replace(/""/g, '"') : token);

type Reword = (match: RegExpExecArray, next: string | undefined) => string;

const NAME = '"((?:[^"]|"")+)"';

/** The first sentence of the errors people meet most, in SQLite's words; the rest keep DuckDB's. */
const REWORDS: [RegExp, Reword][] = [
  [
    new RegExp(`^Referenced column ${NAME} not found in FROM clause!?$`),
    (m, next) => `no such column: ${m[1]}${hint(m[1] as string, next, /^Candidate bindings:/)}`,
  ],
  [
    /^Table with name (\S+) does not exist!?$/,
    (m, next) => `no such table: ${m[1]}${hint(m[1] as string, next, /^Did you mean/)}`,
  ],
  [
    /^(?:Scalar |Aggregate |Table |Macro )?Function with name (\S+) does not exist!?$/,
    (m) => `no such function: ${m[1]}`,
  ],
  [/^syntax error at or near "(.*)"$/, (m) => `near "${unquoted(m[1] as string)}": syntax error`],
  [/^syntax error at end of input$/, () => 'incomplete input'],
  [
    new RegExp(`^Ambiguous reference to column name ${NAME} \\(use: (.*)\\)$`),
    (m) => `ambiguous column name: ${m[1]} (qualify it: ${m[2]})`,
  ],
  [
    new RegExp(`^Referenced table ${NAME} not found!?$`),
    (m, next) =>
      `no table or alias named ${m[1]} in the query's FROM clause${hint(m[1] as string, next, /^Candidate tables:/)}`,
  ],
];

/** An engine message: "<Class> Error: <sentence>…". */
const ENGINE_MESSAGE = /^[A-Z][A-Za-z]*(?: [A-Za-z]+)* Error: /;
/** How the client wraps a parser error once more. */
const WRAPPED = /^Failed to extract statements: /;

/** Whether `message` is one of DuckDB's own (as opposed to the service's). */
export function isDuckMessage(message: string): boolean {
  return ENGINE_MESSAGE.test(message) || WRAPPED.test(message);
}

/** The job's error for DuckDB's `message` (see above). */
export function readableDuckError(message: string): string {
  let body = message;
  while (ENGINE_MESSAGE.test(body) || WRAPPED.test(body)) body = body.replace(ENGINE_MESSAGE, '').replace(WRAPPED, '');
  // What follows a blank line is the translated SQL with a caret under it.
  const [head = ''] = body.split(/\n\s*\nLINE \d+:/);
  const lines = head.split('\n').map((l) => l.trim());
  const first = lines[0] ?? '';
  for (const [pattern, reword] of REWORDS) {
    const m = pattern.exec(first);
    if (m) return reword(m, lines[1]);
  }
  // Other errors: the first line, with DuckDB's "!" made a full stop; lists of engine candidates are left out.
  return first.replace(/!$/, '.');
}
