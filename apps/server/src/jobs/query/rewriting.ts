import { arity } from './timeFunctions';
import { nextSignificant, QueryRefused, sameName, significant, type Token } from './tokens';

/**
 * What the translators that rewrite function calls share (PostgreSQL: postgres/translate.ts, DuckDB:
 * duckdb/translate.ts): the shape of a call, refusals with the SQLite path's messages, and the rewrites that read
 * the same on both engines.
 */

export interface Call {
  name: string;
  /** Raw tokens of each argument. */
  raw: Token[][];
  /** Each argument translated. */
  args: string[];
}

export const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Runs `fn`, turning the error of a rule the SQLite path shares into a QueryRefused with its message. */
/** castParts, refusing a CAST without a type. */
export function typedCastParts(tokens: Token[], word: number, open: number, close: number) {
  const parts = castParts(tokens, word, open, close);
  if (!parts) throw new QueryRefused('CAST needs a type: write CAST(value AS type).');
  return parts;
}

export function refusing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof QueryRefused) throw e;
    throw new QueryRefused((e as Error).message);
  }
}

export const checkArity = (call: Call, min: number, max: number, name = call.name) =>
  refusing(() => arity(name, call.args, min, max));

/** A time between two bounds in seconds (either may be open); NULL for a NULL time, as on SQLite. */
export function inRange(time: string, from: string | number | null, to: string | number | null): string {
  const parts = [from === null ? null : `(${time}) >= ${from}`, to === null ? null : `(${time}) < ${to}`].filter(
    (p) => p !== null,
  );
  return parts.length === 0 ? `((${time}) IS NOT NULL OR NULL)` : `(${parts.join(' AND ')})`;
}

function nullIfAnyNull(name: string) {
  return (call: Call) => {
    if (call.args.length === 0) throw new QueryRefused(`${name} takes at least 1 argument.`);
    const anyNull = call.args.map((a) => `(${a}) IS NULL`).join(' OR ');
    return `CASE WHEN ${anyNull} THEN NULL ELSE ${name}(${call.args.join(', ')}) END`;
  };
}

/** Rewrites both engines write alike. */
export const COMMON_REWRITES: Record<string, (call: Call) => string> = {
  greatest: nullIfAnyNull('greatest'),
  least: nullIfAnyNull('least'),
  if(call) {
    checkArity(call, 2, 3);
    return `CASE WHEN (${call.args[0]}) THEN ${call.args[1]} ELSE ${call.args[2] ?? 'NULL'} END`;
  },
  approx_distinct(call) {
    checkArity(call, 1, 1);
    return `count(DISTINCT ${call.args[0]})`;
  },
};

/**
 * `CAST(x AS type)` between `open` and `close`: the value's tokens, the type's text (lower case, no spaces); null
 * when there is no AS.
 */
function castParts(tokens: Token[], word: number, open: number, close: number) {
  let depth = 0;
  let as = -1;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && t.text.toUpperCase() === 'AS') as = i;
  }
  if (as < 0) return null;
  const typeText = tokens
    .slice(as + 1, close)
    .filter(significant)
    .map((t) => t.text)
    .join('')
    .toLowerCase();
  return {
    value: tokens.slice(open + 1, as),
    typeText,
    /** The type as written. */
    typeTokens: tokens.slice(as + 1, close),
    tryCast: (tokens[word] as Token).text.toUpperCase() === 'TRY_CAST',
  };
}

/** The name of the function called at `i`; qualified names (`x.f()`, `main.f()`) are refused. */
function calledName(tokens: Token[], i: number, previous: Token | undefined): string {
  const t = tokens[i] as Token;
  const name = t.kind === 'quoted' ? t.text.slice(1, -1) : t.text.toLowerCase();
  if (previous?.text === '.') {
    throw new QueryRefused(`Qualified function names are not allowed: call ${name}(…) by its name alone.`);
  }
  return name;
}

/**
 * After `keyword` at `i - 1`, when it is FROM or JOIN: `mydb.table` names the job's own database, whose qualifier is dropped. Returns the
 * text between the keyword and the table name and where the name starts, or null when there is no qualifier.
 */
export function skipDatabase(tokens: Token[], keyword: string, i: number, next: number, database: string) {
  if ((keyword !== 'FROM' && keyword !== 'JOIN') || !sameName(tokens[next], database)) return null;
  const dot = nextSignificant(tokens, next + 1);
  if (tokens[dot]?.text !== '.') return null;
  const between = tokens
    .slice(i, next)
    .map((s) => s.text)
    .join('');
  return { between, at: nextSignificant(tokens, dot + 1) };
}

/** The tokens without the trailing semicolons and space (a cursor or a stream takes one statement). */
export function withoutTrailing(tokens: Token[]): Token[] {
  while (tokens.length > 0 && (!significant(tokens.at(-1) as Token) || tokens.at(-1)?.text === ';')) tokens.pop();
  return tokens;
}

export type Literal = string | number | null | undefined;

/** The value of an argument written as a literal: text, a number, NULL; undefined for anything else. */
export function literalOf(raw: Token[] | undefined): Literal {
  if (raw === undefined) return null;
  const tokens = raw.filter(significant);
  if (tokens.length === 1) {
    const t = tokens[0] as Token;
    if (t.kind === 'string') return t.text.slice(1, -1).replace(/''/g, "'");
    if (t.kind === 'number') return Number(t.text);
    if (t.kind === 'word' && t.text.toUpperCase() === 'NULL') return null;
  }
  if (tokens.length === 2 && tokens[0]?.text === '-' && tokens[1]?.kind === 'number') return -Number(tokens[1].text);
  return undefined;
}

/**
 * The type of every element of a container written as a literal, JSON text (`'[10,20]'`, `'{"k":2}'`) or
 * `ARRAY[7, 8]`, when all of them are numbers (NULLs aside): 'bigint' when all are whole (and safe), else
 * 'double'; null when the container is an expression or holds anything but numbers. element_at on such a
 * container gives a number, as Presto and the SQLite engine did; on any other it gives text, the engines' types
 * being fixed before the rows are read.
 */
export function numericElements(raw: Token[] | undefined): 'bigint' | 'double' | null {
  const tokens = (raw ?? []).filter(significant);
  let values: unknown[];
  if (tokens[0]?.kind === 'word' && tokens[0].text.toUpperCase() === 'ARRAY' && tokens[1]?.text === '[') {
    if (tokens.at(-1)?.text !== ']') return null;
    values = splitArguments(tokens.slice(2, -1)).map(literalOf);
  } else {
    const text = literalOf(raw);
    if (typeof text !== 'string') return null;
    try {
      const doc: unknown = JSON.parse(text);
      if (doc === null || typeof doc !== 'object') return null;
      values = Object.values(doc);
    } catch {
      return null;
    }
  }
  const numbers = values.filter((v) => v !== null);
  if (numbers.length === 0 || numbers.some((v) => typeof v !== 'number')) return null;
  return numbers.every((v) => Number.isSafeInteger(v)) ? 'bigint' : 'double';
}

/** Splits a call's argument tokens at its top-level commas. */
export function splitArguments(tokens: Token[]): Token[][] {
  const args: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[')) depth++;
    else if (t.kind === 'punct' && (t.text === ')' || t.text === ']')) depth--;
    if (depth === 0 && t.kind === 'punct' && t.text === ',') {
      args.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.some(significant) || args.length > 0) args.push(current);
  return args;
}

/** The call at `i` (its `(` at `open`, `)` at `close`), each argument translated by `translate`. */
export function parseCall(
  tokens: Token[],
  i: number,
  span: { open: number; close: number; previous: Token | undefined },
  translate: (argument: Token[]) => string,
): Call {
  const name = calledName(tokens, i, span.previous);
  const raw = splitArguments(tokens.slice(span.open + 1, span.close));
  return { name, raw, args: raw.map((a) => translate(a).trim()) };
}
