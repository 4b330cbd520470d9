import { pgIdentifier } from '../../../platform/storage';
import { nextSignificant, significant, type Token } from '../tokens';

/**
 * Names as Presto (and the embedded engine) read them, written so PostgreSQL reads the same. Presto folds every
 * identifier to lower case, quoted or not; PostgreSQL keeps a quoted one's case and reserves words Presto does
 * not. So a quoted name is written lower-cased; a PostgreSQL keyword used as a name is quoted (`user` would
 * otherwise be the session's role, `SELECT x day` a syntax error); and a name longer than PostgreSQL's 63 bytes
 * is written as the data plane names it (pgIdentifier). The word lists come from PostgreSQL's keywords
 * (pg_get_keywords()) that failed as a column name in a probe of each position, minus Presto's reserved words
 * and the words Presto's own grammar uses; differential.test.ts reads them as columns on both engines.
 */

/** PostgreSQL keywords that are never keywords in a Presto query: always names. */
const ALWAYS_NAMES = new Set([
  'analyse',
  'analyze',
  'asymmetric',
  'authorization',
  'binary',
  'both',
  'check',
  'collate',
  'collation',
  'column',
  'concurrently',
  'current_catalog',
  'current_role',
  'current_schema',
  // Reserved in Presto, where it is the caller; the embedded engine reads a column: never the role's name.
  'current_user',
  'default',
  'deferrable',
  'do',
  'foreign',
  'freeze',
  'grant',
  'ilike',
  'initially',
  'isnull',
  'leading',
  'notnull',
  'overlaps',
  'placing',
  'primary',
  'references',
  'returning',
  'session_user',
  'similar',
  'symmetric',
  'system_user',
  'to',
  'trailing',
  'unique',
  'user',
  'variadic',
  'verbose',
]);

/** Unreserved in PostgreSQL, but a bare alias (`SELECT x day`) only when quoted. */
const BARE_LABELS = new Set([
  'char',
  'character',
  'day',
  'filter',
  'hour',
  'minute',
  'month',
  'over',
  'precision',
  'second',
  'varying',
  'within',
  'without',
  'year',
]);

const upperOf = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');

function previousSignificant(tokens: Token[], from: number): Token | undefined {
  let i = from - 1;
  while (i >= 0 && !significant(tokens[i] as Token)) i--;
  return tokens[i];
}

/** Words Presto's grammar uses in some places only: whether the one at `i` is that keyword. */
const CONTEXT_KEYWORDS: Record<
  string,
  (next: Token | undefined, after: Token | undefined, previous?: Token) => boolean
> = {
  // LIMIT n | LIMIT ALL, OFFSET n [ROWS], FETCH FIRST|NEXT n ROWS ONLY
  limit: (next) => next?.kind === 'number' || upperOf(next) === 'ALL',
  offset: (next) => next?.kind === 'number',
  fetch: (next) => ['FIRST', 'NEXT'].includes(upperOf(next)),
  only: (_next, _after, previous) => ['ROW', 'ROWS'].includes(upperOf(previous)),
  lateral: (next) => next?.text === '(',
  tablesample: (next) => ['BERNOULLI', 'SYSTEM'].includes(upperOf(next)),
  // WINDOW w AS (…)
  window: (_next, after) => upperOf(after) === 'AS',
};

/**
 * For a word Presto's grammar uses in some places only (LIMIT, OFFSET, WINDOW…): whether the one at `i` is a
 * name there rather than that keyword; undefined for any other word. Every engine's translator asks this.
 */
export function contextWordIsName(tokens: Token[], i: number): boolean | undefined {
  const t = tokens[i] as Token;
  const keyword = t.kind === 'word' ? CONTEXT_KEYWORDS[t.text.toLowerCase()] : undefined;
  if (!keyword) return undefined;
  const next = nextSignificant(tokens, i + 1);
  return !keyword(tokens[next], tokens[nextSignificant(tokens, next + 1)], previousSignificant(tokens, i));
}

const quoted = (name: string) => `"${pgIdentifier(name).replace(/"/g, '""')}"`;

/** Whether the word at `i` stands where an alias ends a select item or a column list. */
function endsItem(tokens: Token[], i: number): boolean {
  const next = tokens[nextSignificant(tokens, i + 1)];
  if (next !== undefined && ![',', ')', ';'].includes(next.text) && upperOf(next) !== 'FROM') return false;
  const previous = previousSignificant(tokens, i);
  return previous !== undefined && previous.kind !== 'string' && previous.text !== '(';
}

/**
 * The text PostgreSQL must read for the word or quoted name at `i` to mean what Presto means by it (a word
 * that is a keyword there comes back as it is).
 */
export function nameText(tokens: Token[], i: number): string {
  const t = tokens[i] as Token;
  if (t.kind === 'quoted') {
    const inner = t.text.slice(1, -1);
    const name = t.text.startsWith('`') ? inner.replace(/``/g, '`') : inner.replace(/""/g, '"');
    return quoted(name.toLowerCase());
  }
  if (t.kind !== 'word') return t.text;
  const lower = t.text.toLowerCase();
  if (lower.length > 63 || ALWAYS_NAMES.has(lower)) return quoted(lower);
  const contextName = contextWordIsName(tokens, i);
  if (contextName !== undefined) return contextName ? quoted(lower) : t.text;
  if (BARE_LABELS.has(lower) && endsItem(tokens, i)) return quoted(lower);
  return t.text;
}

/** Words that end an expression rather than name it (`x IS NULL`, `CASE … END`). */
const NOT_ALIASES = new Set(['NULL', 'END', 'TRUE', 'FALSE', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP']);
/** Words after which a name is part of the expression. */
const NOT_BEFORE_ALIAS = new Set(['IS', 'NOT', 'AND', 'OR', 'LIKE', 'BETWEEN', 'IN', 'ELSE', 'THEN', 'WHEN', 'CASE']);
const ENDS_LIST = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'UNION', 'EXCEPT', 'INTERSECT']);

const unquoted = (t: Token) =>
  t.kind === 'quoted'
    ? t.text.slice(1, -1).replace(t.text.startsWith('`') ? /``/g : /""/g, t.text[0] as string)
    : t.text;

/** The name of one select item as the embedded engine gives it; null for a column read as it is. */
function itemName(item: Token[]): string | null | undefined {
  const s = item.filter(significant);
  const last = s.at(-1);
  const before = s.at(-2);
  if (last === undefined) return undefined;
  if (last.text === '*') return undefined;
  const isName = (t: Token | undefined) => t?.kind === 'quoted' || (t?.kind === 'word' && !NOT_ALIASES.has(upperOf(t)));
  if (s.every((t, i) => (i % 2 === 0 ? isName(t) : t.text === '.'))) return null;
  if (isName(last) && upperOf(before) === 'AS') return unquoted(last);
  if (
    isName(last) &&
    before !== undefined &&
    before.text !== '.' &&
    (before.kind !== 'word' || !NOT_BEFORE_ALIAS.has(upperOf(before))) &&
    (['word', 'quoted', 'number', 'string'].includes(before.kind) || before.text === ')' || before.text === ']')
  ) {
    return unquoted(last);
  }
  return item
    .map((t) => t.text)
    .join('')
    .trim();
}

/**
 * The names of the result's columns as the embedded engine gives them, where PostgreSQL's would differ: an
 * alias as written (PostgreSQL lower-cases it), an expression by its text (PostgreSQL names `count(*)` "count").
 * Null where PostgreSQL's name is the same (a column read as it is); null for the whole list when the select
 * list has a `*`, whose columns only PostgreSQL knows.
 */
export function resultNames(tokens: Token[]): (string | null)[] | null {
  let depth = 0;
  let start = -1;
  for (let i = 0; i < tokens.length && start < 0; i++) {
    const t = tokens[i] as Token;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && upperOf(t) === 'SELECT') start = i + 1;
  }
  if (start < 0) return null;
  const first = nextSignificant(tokens, start);
  if (['DISTINCT', 'ALL'].includes(upperOf(tokens[first]))) start = first + 1;
  const items: Token[][] = [[]];
  depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    if (depth === 0 && (ENDS_LIST.has(upperOf(t)) || t.text === ';')) break;
    if (depth === 0 && t.text === ',') items.push([]);
    else items.at(-1)?.push(t);
  }
  const names = items.map(itemName);
  return names.some((n) => n === undefined) ? null : (names as (string | null)[]);
}
