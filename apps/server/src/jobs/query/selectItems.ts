import { tokenize } from './tokens';

/**
 * Functions whose result Presto types as a timestamp. The engines here hand it over as text
 * ('2024-03-01 00:00:00.000'), so the result schema names the type from the query instead.
 */
const TIMESTAMP_FUNCTIONS = new Set(['date_trunc', 'from_unixtime', 'date_parse', 'from_iso8601_timestamp']);

/**
 * For each item of the query's first top-level SELECT, the function it is a bare call of (`date_trunc(…)`,
 * `date_trunc(…) AS day`), lower case, else null. Read from tokens: strings, quoted names and comments are
 * single tokens, and brackets are counted, so a comma or FROM inside a call or a sub-query is not an end.
 */
export function selectItemCalls(sql: string): (string | null)[] {
  const tokens = tokenize(sql).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  let depth = 0;
  let start = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as { kind: string; text: string };
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && /^select$/i.test(t.text)) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return [];
  if (/^(distinct|all)$/i.test(tokens[start]?.text ?? '')) start++;
  const items: (typeof tokens)[] = [[]];
  depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i] as (typeof tokens)[number];
    if (t.text === '(') depth++;
    else if (t.text === ')') {
      if (depth === 0) break;
      depth--;
    }
    if (depth === 0 && t.kind === 'word' && /^(from|where|group|order|limit|union|having)$/i.test(t.text)) break;
    if (depth === 0 && t.text === ',') items.push([]);
    else (items.at(-1) as typeof tokens).push(t);
  }
  return items.map((item) => {
    const [name, open] = item;
    if (name?.kind !== 'word' || open?.text !== '(') return null;
    // The call ends at its closing bracket; only an alias may follow.
    let level = 0;
    let end = 1;
    for (; end < item.length; end++) {
      const text = (item[end] as { text: string }).text;
      if (text === '(') level++;
      else if (text === ')' && --level === 0) break;
    }
    const rest = item.slice(end + 1);
    const alias =
      rest.length === 0 ||
      (rest.length === 1 && rest[0]?.kind !== 'punct') ||
      (rest.length === 2 && /^as$/i.test(rest[0]?.text ?? ''));
    return alias ? name.text.toLowerCase() : null;
  });
}

/**
 * A query job's result schema with the columns a timestamp function made typed `timestamp`, as Presto types
 * them, where the engine saw only text (every engine here: SQLite, DuckDB and PostgreSQL alike).
 */
export function withCallResultTypes(query: string, schema: [string, string][]): [string, string][] {
  const calls = selectItemCalls(query);
  return schema.map(([name, type], i) => {
    const call = calls[i];
    return type === 'varchar' && call !== null && call !== undefined && TIMESTAMP_FUNCTIONS.has(call)
      ? [name, 'timestamp']
      : [name, type];
  });
}
