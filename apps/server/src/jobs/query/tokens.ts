/**
 * The dialect-neutral pieces of the Presto dialect, shared by the DuckDB (duckdb/translate.ts) and PostgreSQL
 * (postgres/translate.ts) translators: the tokenizer, bracket matching and the classification of CAST
 * target types. Strings, quoted identifiers and comments are single tokens, so rewrites never touch them.
 */

export interface Token {
  kind: 'word' | 'string' | 'quoted' | 'number' | 'punct' | 'space' | 'comment';
  text: string;
}

/** A query the dialect cannot run, with a message for the person who wrote it. */
export class QueryRefused extends Error {
  override name = 'QueryRefused';
}

function scanQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    let end = i + 1;
    let kind: Token['kind'] = 'punct';
    if (/\s/.test(c)) {
      while (end < sql.length && /\s/.test(sql[end] as string)) end++;
      kind = 'space';
    } else if (c === '-' && sql[i + 1] === '-') {
      end = sql.indexOf('\n', i);
      end = end < 0 ? sql.length : end;
      kind = 'comment';
    } else if (c === '/' && sql[i + 1] === '*') {
      end = sql.indexOf('*/', i + 2);
      end = end < 0 ? sql.length : end + 2;
      kind = 'comment';
    } else if (c === "'") {
      end = scanQuoted(sql, i, "'");
      kind = 'string';
    } else if (c === '"' || c === '`') {
      end = scanQuoted(sql, i, c);
      kind = 'quoted';
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^(\d*\.?\d*([eE][+-]?\d+)?)/.exec(sql.slice(i)) as RegExpExecArray;
      end = i + Math.max(1, (m[1] as string).length);
      kind = 'number';
    } else if (/[A-Za-z_]/.test(c)) {
      while (end < sql.length && /[A-Za-z0-9_$]/.test(sql[end] as string)) end++;
      kind = 'word';
    }
    tokens.push({ kind, text: sql.slice(i, end) });
    i = end;
  }
  return tokens;
}

export const significant = (t: Token) => t.kind !== 'space' && t.kind !== 'comment';

export function nextSignificant(tokens: Token[], from: number): number {
  let i = from;
  while (i < tokens.length && !significant(tokens[i] as Token)) i++;
  return i;
}

/** Index of the token closing the bracket opened at `open`, or -1. */
export function matching(tokens: Token[], open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind !== 'punct') continue;
    if (t.text === opener) depth++;
    else if (t.text === closer && --depth === 0) return i;
  }
  return -1;
}

/** Whether a word or quoted identifier names `name` (lower case). */
export function sameName(token: Token | undefined, name: string): boolean {
  if (!token) return false;
  if (token.kind === 'word') return token.text.toLowerCase() === name;
  return token.kind === 'quoted' && token.text.slice(1, -1).toLowerCase() === name;
}

const TEXT_TYPES = /^(varchar|char|varbinary|string)(\(\d+\))?$/;
const CAST_TARGETS: [RegExp, CastTarget][] = [
  [/^(bigint|integer|int|smallint|tinyint)$/, 'bigint'],
  [/^(double|real|float|doubleprecision|decimal(\(\d+(,\d+)?\))?|numeric(\(\d+(,\d+)?\))?)$/, 'double'],
  [/^boolean$/, 'boolean'],
  [/^timestamp(\(\d\))?(withtimezone)?$/, 'timestamp'],
  [/^date$/, 'date'],
  [/^json$/, 'json'],
];

export type CastTarget = 'bigint' | 'double' | 'boolean' | 'timestamp' | 'date' | 'json';

/**
 * What a CAST's type (its tokens' text without spaces, lower case) converts to: 'text', a Presto cast
 * target, or null for a type left to the engine. Arrays, maps and rows are refused.
 */
export function castKind(typeText: string): 'text' | CastTarget | null {
  if (TEXT_TYPES.test(typeText)) return 'text';
  for (const [pattern, target] of CAST_TARGETS) if (pattern.test(typeText)) return target;
  if (/^(array|map|row)\b/.test(typeText)) {
    throw new QueryRefused(
      `CAST to ${typeText} is not supported: arrays and maps are JSON text here; read them with json_extract_scalar, element_at or cardinality.`,
    );
  }
  return null;
}
