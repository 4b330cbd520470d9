import { nextSignificant, significant, type Token } from '../tokens';
import { contextWordIsName } from './identifiers';

/**
 * NULLs sort as on the embedded engine: DuckDB is opened with `default_null_order =
 * nulls_first_on_asc_last_on_desc` (platform/duckSettings.ts), PostgreSQL sorts them the other way and has no
 * setting for it. So every ORDER BY item without a NULLS clause — of the query, of a window's OVER (…), of an
 * aggregate's (… ORDER BY …) — gets `NULLS FIRST` when ascending and `NULLS LAST` when descending. Strings,
 * quoted names and comments are single tokens: nothing inside them is read here.
 */

const upperOf = (t: Token | undefined) => (t?.kind === 'word' ? t.text.toUpperCase() : '');

/** Words that end an ORDER BY list where they are keywords (a column may be named `limit` or `window`). */
const ENDS_LIST = new Set(['LIMIT', 'OFFSET', 'FETCH', 'WINDOW', 'UNION', 'INTERSECT', 'EXCEPT', 'FOR']);
/** A window frame (`ROWS BETWEEN …`, `RANGE UNBOUNDED PRECEDING`) ends a window's ORDER BY list. */
const FRAME_UNITS = new Set(['ROWS', 'RANGE', 'GROUPS']);
const FRAME_STARTS = new Set(['BETWEEN', 'UNBOUNDED', 'CURRENT']);

function endsList(tokens: Token[], i: number): boolean {
  const t = tokens[i] as Token;
  if (t.kind === 'punct') return t.text === ')' || t.text === ';';
  const upper = upperOf(t);
  if (FRAME_UNITS.has(upper)) {
    const next = tokens[nextSignificant(tokens, i + 1)];
    return FRAME_STARTS.has(upperOf(next)) || next?.kind === 'number';
  }
  return ENDS_LIST.has(upper) && contextWordIsName(tokens, i) !== true;
}

type Place = 'FIRST' | 'LAST';
const SPACE: Token = { kind: 'space', text: ' ' };

/** Where the item of significant tokens `item` puts its NULLs, or null when it says so itself. */
function nullsFor(item: Token[]): Place | null {
  if (item.length === 0 || upperOf(item.at(-2)) === 'NULLS') return null;
  return item.length > 1 && upperOf(item.at(-1)) === 'DESC' ? 'LAST' : 'FIRST';
}

/**
 * For the ORDER BY list starting at `from` (after BY), the index after each item's last significant token, with
 * the clause to write there.
 */
function listInsertions(tokens: Token[], from: number, into: Map<number, Place>): void {
  let depth = 0;
  let item: Token[] = [];
  let end = from;
  const close = () => {
    const place = nullsFor(item);
    if (place) into.set(end, place);
    item = [];
  };
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (depth === 0 && endsList(tokens, i)) break;
    if (t.text === '(' || t.text === '[') depth++;
    else if (t.text === ')' || t.text === ']') depth--;
    if (depth === 0 && t.text === ',') {
      close();
      continue;
    }
    if (significant(t)) {
      item.push(t);
      end = i + 1;
    }
  }
  close();
}

/** The tokens with the NULLS clause DuckDB's order implies written after every ORDER BY item lacking one. */
export function withNullOrder(tokens: Token[]): Token[] {
  const insertions = new Map<number, Place>();
  tokens.forEach((t, i) => {
    const by = nextSignificant(tokens, i + 1);
    if (upperOf(t) === 'ORDER' && upperOf(tokens[by]) === 'BY') listInsertions(tokens, by + 1, insertions);
  });
  const out: Token[] = [];
  for (let i = 0; i <= tokens.length; i++) {
    const place = insertions.get(i);
    if (place) out.push(SPACE, { kind: 'word', text: 'NULLS' }, SPACE, { kind: 'word', text: place });
    if (i < tokens.length) out.push(tokens[i] as Token);
  }
  return out;
}
