import { matching, nextSignificant, QueryRefused, significant, type Token } from './tokens';

/**
 * `UNNEST(x) [AS] t(c)` (or `t(k, v)` for a map) as both translators see it: where it starts and ends in the
 * tokens, its argument's brackets, its alias and its column names. The shapes the dialect refuses are refused
 * here, once, so both backends refuse the same queries with the same message.
 */
export interface UnnestClause {
  /** Index of the UNNEST word. */
  start: number;
  /** Indexes of the argument's brackets. */
  open: number;
  close: number;
  alias: Token;
  /** One column for an array's elements (or a map's values), two for a map's keys and values. */
  columns: Token[];
  /** Index just past the column list. */
  end: number;
}

/** A name token's name, lower case; null when the token is not a name. */
const nameOf = (t: Token | undefined) =>
  t?.kind === 'word' ? t.text.toLowerCase() : t?.kind === 'quoted' ? t.text.slice(1, -1).toLowerCase() : null;

/** The UNNEST clause whose word is at `i`, or null when `i` is not the word UNNEST followed by a bracket. */
export function unnestAt(tokens: Token[], i: number): UnnestClause | null {
  const t = tokens[i];
  if (t?.kind !== 'word' || t.text.toUpperCase() !== 'UNNEST') return null;
  const open = nextSignificant(tokens, i + 1);
  if (tokens[open]?.text !== '(') return null;
  const close = matching(tokens, open, '(', ')');
  let at = nextSignificant(tokens, close + 1);
  if (close > 0 && tokens[at]?.kind === 'word' && (tokens[at] as Token).text.toUpperCase() === 'WITH') {
    throw new QueryRefused('UNNEST … WITH ORDINALITY is not supported: unnest the array alone.');
  }
  if (tokens[at]?.kind === 'word' && (tokens[at] as Token).text.toUpperCase() === 'AS') {
    at = nextSignificant(tokens, at + 1);
  }
  const alias = tokens[at];
  const listOpen = nextSignificant(tokens, at + 1);
  if (close < 0 || nameOf(alias) === null || tokens[listOpen]?.text !== '(') {
    throw new QueryRefused(
      'Name the rows and columns of UNNEST: UNNEST(array) AS t(element), or AS t(key, value) for a map.',
    );
  }
  const listClose = matching(tokens, listOpen, '(', ')');
  const columns = tokens.slice(listOpen + 1, listClose).filter((c) => significant(c) && c.text !== ',');
  if (listClose < 0 || columns.length < 1 || columns.length > 2 || columns.some((c) => nameOf(c) === null)) {
    throw new QueryRefused('UNNEST gives one column for an array, or two (key, value) for a map.');
  }
  return { start: i, open, close, alias: alias as Token, columns, end: listClose + 1 };
}

/** Every UNNEST clause of the query, in order (refusing the shapes the dialect does not support). */
export function unnestClauses(tokens: Token[]): UnnestClause[] {
  const found: UnnestClause[] = [];
  tokens.forEach((_, i) => {
    const clause = unnestAt(tokens, i);
    if (clause) found.push(clause);
  });
  return found;
}
