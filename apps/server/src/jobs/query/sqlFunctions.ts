import { arity } from './timeFunctions';

/**
 * Presto functions the engines lack, in JavaScript: the DuckDB engine registers them as its own functions
 * (duckdb/functions.ts), the PostgreSQL translator reads JSON paths with them. They were written for the SQLite
 * engine (gone, decision 0053), whose values they keep: booleans 1/0, arrays and maps JSON text (how tables keep
 * them, DESIGN §4).
 */

type Fn = (...args: unknown[]) => unknown;

const regexps = new Map<string, RegExp>();

function regex(name: string, pattern: unknown, flags = ''): RegExp {
  const key = `${flags}/${String(pattern)}`;
  let re = regexps.get(key);
  if (!re) {
    try {
      re = new RegExp(String(pattern), flags);
    } catch (e) {
      throw new TypeError(
        `${name}: invalid regular expression ${JSON.stringify(String(pattern))}: ${(e as Error).message}`,
      );
    }
    if (regexps.size > 1000) regexps.clear();
    regexps.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** A value as SQLite can hold it: nested values become JSON text, booleans 1/0. */
function toSql(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object') return JSON.stringify(v);
  return v;
}

const JSON_PATH_STEP = /^(?:\.([A-Za-z_$][\w$]*)|\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*'([^']*)'\s*\])/;

/** The steps of a JSONPath of the Presto kind: `$.a.b`, `$[0]`, `$["key with space"]` (numbers index arrays). */
export function jsonPathSteps(path: string): (string | number)[] {
  let rest = path.trim();
  if (!rest.startsWith('$')) throw new TypeError(`json_extract_scalar: the path must start with "$", not "${path}".`);
  rest = rest.slice(1);
  const steps: (string | number)[] = [];
  while (rest.length > 0) {
    const m = JSON_PATH_STEP.exec(rest);
    if (!m) throw new TypeError(`json_extract_scalar: cannot read the path "${path}".`);
    rest = rest.slice(m[0].length);
    steps.push(m[2] !== undefined ? Number(m[2]) : ((m[1] ?? m[3] ?? m[4]) as string));
  }
  return steps;
}

/** Walks a JSONPath of the Presto kind over a parsed document. */
export function walkJsonPath(doc: unknown, path: string): unknown {
  let node = doc;
  for (const step of jsonPathSteps(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    if (typeof step === 'number') node = Array.isArray(node) ? node[step] : undefined;
    else node = Array.isArray(node) ? undefined : (node as Record<string, unknown>)[step];
  }
  return node;
}

/** SQL-like ordering of two non-null values of the same kind (numbers or text). */
function order(a: unknown, b: unknown): number {
  const x = a as number;
  const y = b as number;
  return x < y ? -1 : x > y ? 1 : 0;
}

export const scalars: Record<string, Fn> = {
  regexp_like(...args) {
    arity('regexp_like', args, 2, 2);
    const [s, p] = args;
    if (s === null || p === null) return null;
    return regex('regexp_like', p).test(String(s)) ? 1 : 0;
  },
  /** SQLite's `x REGEXP y` operator calls regexp(y, x). */
  regexp(...args) {
    arity('regexp', args, 2, 2);
    const [p, s] = args;
    if (s === null || p === null) return null;
    return regex('REGEXP', p).test(String(s)) ? 1 : 0;
  },
  regexp_extract(...args) {
    arity('regexp_extract', args, 2, 3);
    const [s, p, group] = args;
    if (s === null || p === null) return null;
    const m = regex('regexp_extract', p).exec(String(s));
    if (!m) return null;
    const g = group === undefined ? 0 : Number(group);
    if (!Number.isInteger(g) || g < 0 || g >= m.length) {
      throw new TypeError(`regexp_extract: the pattern has no group ${String(group)}.`);
    }
    return m[g] ?? null;
  },
  regexp_replace(...args) {
    arity('regexp_replace', args, 2, 3);
    const [s, p, replacement] = args;
    if (s === null || p === null) return null;
    return String(s).replace(regex('regexp_replace', p, 'g'), replacement == null ? '' : String(replacement));
  },
  split_part(...args) {
    arity('split_part', args, 3, 3);
    const [s, delimiter, index] = args;
    if (s === null || delimiter === null || index === null) return null;
    const i = Number(index);
    if (!Number.isInteger(i) || i < 1) throw new TypeError('split_part: the index must be a whole number from 1.');
    const parts = String(delimiter) === '' ? [String(s)] : String(s).split(String(delimiter));
    return parts[i - 1] ?? null;
  },
  strpos(...args) {
    arity('strpos', args, 2, 2);
    const [s, sub] = args;
    if (s === null || sub === null) return null;
    return String(s).indexOf(String(sub)) + 1;
  },
  json_extract_scalar(...args) {
    arity('json_extract_scalar', args, 2, 2);
    const [json, path] = args;
    if (json === null || path === null) return null;
    const value = walkJsonPath(parseJson(json), String(path));
    if (value === undefined || value === null || typeof value === 'object') return null;
    return String(value);
  },
  element_at(...args) {
    arity('element_at', args, 2, 2);
    const [container, key] = args;
    if (container === null || key === null) return null;
    const doc = parseJson(container);
    if (Array.isArray(doc)) {
      const i = Number(key);
      if (!Number.isInteger(i) || i === 0)
        throw new TypeError('element_at: array indexes start at 1 (or -1 from the end).');
      return toSql(i > 0 ? doc[i - 1] : doc[doc.length + i]);
    }
    if (doc && typeof doc === 'object') return toSql((doc as Record<string, unknown>)[String(key)]);
    return null;
  },
  cardinality(...args) {
    arity('cardinality', args, 1, 1);
    const doc = parseJson(args[0]);
    if (Array.isArray(doc)) return doc.length;
    return doc && typeof doc === 'object' ? Object.keys(doc).length : null;
  },
  contains(...args) {
    arity('contains', args, 2, 2);
    const doc = parseJson(args[0]);
    if (!Array.isArray(doc) || args[1] === null) return null;
    return doc.some((v) => v === args[1] || (v !== null && String(v) === String(args[1]))) ? 1 : 0;
  },
  greatest(...args) {
    if (args.length === 0) throw new TypeError('greatest takes at least 1 argument.');
    if (args.some((v) => v === null)) return null;
    return args.reduce((a, b) => (order(b, a) > 0 ? b : a));
  },
  least(...args) {
    if (args.length === 0) throw new TypeError('least takes at least 1 argument.');
    if (args.some((v) => v === null)) return null;
    return args.reduce((a, b) => (order(b, a) < 0 ? b : a));
  },
  url_extract_host(...args) {
    arity('url_extract_host', args, 1, 1);
    return urlPart(args[0], (u) => u.hostname);
  },
  url_extract_path(...args) {
    arity('url_extract_path', args, 1, 1);
    return urlPart(args[0], (u) => u.pathname);
  },
  url_extract_parameter(...args) {
    arity('url_extract_parameter', args, 2, 2);
    return urlPart(args[0], (u) => u.searchParams.get(String(args[1])));
  },
};

function urlPart(v: unknown, pick: (u: URL) => string | null): string | null {
  if (v === null) return null;
  try {
    return pick(new URL(String(v)));
  } catch {
    return null;
  }
}

/** A JSON value as SQLite stores it: booleans 1/0, arrays and objects JSON text. */
function sqlValue(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return v ?? null;
}

/**
 * The rows of UNNEST over JSON text, one per element of a JSON array (`unnest_key` its 1-based position) or entry of a JSON object. NULL gives no rows.
 */
export function* unnestRows(input: unknown): Generator<[unknown, unknown]> {
  if (input === null || input === undefined) return;
  const value = parseJson(input);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield [i + 1, sqlValue(value[i])];
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield [k, sqlValue(v)];
  } else {
    throw new TypeError('UNNEST: the value is not an array or a map.');
  }
}
