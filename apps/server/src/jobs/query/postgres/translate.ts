import { parseCall, quote, skipDatabase, typedCastParts, withoutTrailing } from '../rewriting';
import { timestampText } from '../timeFormats';
import { castKind, matching, nextSignificant, QueryRefused, significant, type Token, tokenize } from '../tokens';
import { type UnnestClause, unnestAt } from '../unnest';
import { PASS_THROUGH, PRESTO_TYPED, SQL_WORDS } from './allowedFunctions';
import { rewrites, type TranslateOptions } from './callRewrites';
import { nameText } from './identifiers';
import { withNullOrder } from './nullOrder';

/**
 * The Presto dialect on PostgreSQL. Every function call is rewritten or checked against a list of allowed
 * PostgreSQL built-ins (allowedFunctions.ts): a call to anything else (set_config, query_to_xml, pg_*…) is
 * refused, so a query cannot leave the sandbox its role and read-only transaction put it in. Arguments that
 * shape a computation (time zones, patterns, TD_INTERVAL specs, units) must be literals: they are checked and
 * folded here with the same TypeScript rules the SQLite functions use, and their errors are refused before
 * the query runs. Booleans are PostgreSQL booleans; the runner reports them as 1 and 0 as SQLite does.
 */

function rewriteCast(tokens: Token[], word: number, open: number, close: number, options: TranslateOptions): string {
  const { value, typeText } = typedCastParts(tokens, word, open, close);
  const expr = translateTokens(value, options).trim();
  const kind = castKind(typeText);
  // A value as text the way the embedded engine writes it (typedFunctions.ts): 0.0 keeps its ".0".
  if (kind === 'text') return `svc_fn.to_text(${expr})`;
  if (kind === null) throw new QueryRefused(`CAST to ${typeText} is not supported.`);
  return `svc_fn.cast_${kind}(${expr}, ${isWord(tokens[word], 'TRY_CAST')})`;
}

function previousIndex(tokens: Token[], from: number): number {
  let i = from - 1;
  while (i >= 0 && !significant(tokens[i] as Token)) i--;
  return i;
}

const previousSignificant = (tokens: Token[], from: number) => tokens[previousIndex(tokens, from)];
const isWord = (t: Token | undefined, ...words: string[]) => t?.kind === 'word' && words.includes(t.text.toUpperCase());

/** Index of the `(` that the `)` at `close` closes, or -1. */
function openingOf(tokens: Token[], close: number): number {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    const t = tokens[i] as Token;
    if (t.kind !== 'punct') continue;
    if (t.text === ')') depth++;
    else if (t.text === '(' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Whether the name at `word` names a CTE: right after WITH [RECURSIVE], or after a comma that ends an earlier
 * CTE (`name [(columns)] AS [NOT] [MATERIALIZED] (…)`) of the same WITH clause. `FROM f(x) AS (a int)` (a
 * function with a column definition list) is therefore a call, and checked as one.
 */
function isCteName(tokens: Token[], word: number): boolean {
  const previous = previousIndex(tokens, word);
  if (isWord(tokens[previous], 'WITH', 'RECURSIVE')) return true;
  if (tokens[previous]?.text !== ',') return false;
  const close = previousIndex(tokens, previous);
  if (tokens[close]?.text !== ')') return false;
  let k = previousIndex(tokens, openingOf(tokens, close));
  while (isWord(tokens[k], 'MATERIALIZED', 'NOT')) k = previousIndex(tokens, k);
  if (!isWord(tokens[k], 'AS')) return false;
  let name = previousIndex(tokens, k);
  if (tokens[name]?.text === ')') name = previousIndex(tokens, openingOf(tokens, name));
  const t = tokens[name];
  return (t?.kind === 'word' || t?.kind === 'quoted') && isCteName(tokens, name);
}

/** Whether `(` at `open`, after the name at `word`, starts a call rather than a CTE's or an alias's column list. */
export function isCall(tokens: Token[], word: number, open: number): boolean {
  const after = nextSignificant(tokens, matching(tokens, open, '(', ')') + 1);
  if (isWord(tokens[after], 'AS') && tokens[nextSignificant(tokens, after + 1)]?.text === '(') {
    if (isCteName(tokens, word)) return false;
  }
  return !isWord(previousSignificant(tokens, word), 'AS');
}

/**
 * Refuses the system catalogs, and what PostgreSQL would read differently from the shared tokenizer, which could
 * hide a call inside what the tokenizer takes for a string: dollar quoting and E'…' strings with backslash escapes.
 */
export function checkLexing(tokens: Token[]): void {
  tokens.forEach((t, i) => {
    const name =
      t.kind === 'word' ? t.text.toLowerCase() : t.kind === 'quoted' ? t.text.slice(1, -1).toLowerCase() : '';
    if (
      name === 'information_schema' ||
      (name.startsWith('pg_') && tokens[nextSignificant(tokens, i + 1)]?.text !== '(')
    ) {
      // The catalogs list every customer's schemas and tables; a query sees only its own database.
      throw new QueryRefused(
        `System catalogs (${name}) cannot be read by queries: a query reads its own database's tables.`,
      );
    }
    if (t.kind === 'punct' && t.text === ':' && tokens[i + 1]?.text === ':') {
      // Presto has no `::`; on PostgreSQL a cast to regclass, regnamespace… would tell whether another schema's
      // table exists (its error differs), so the operator is refused rather than passed through.
      throw new QueryRefused('The :: cast is not Presto SQL: write CAST(value AS type).');
    }
    if (t.kind === 'punct' && t.text === '$') {
      throw new QueryRefused("Dollar-quoted text ($$…$$) and $n parameters are not supported: quote text with '…'.");
    }
    const before = tokens[i - 1];
    if (t.kind === 'string' && before?.kind === 'word' && /^[eE]$/.test(before.text)) {
      throw new QueryRefused("E'…' strings are not supported: write text in plain '…' quotes ('' for a quote).");
    }
  });
}

function translateCall(tokens: Token[], i: number, open: number, close: number, options: TranslateOptions): string {
  const call = parseCall(tokens, i, { open, close, previous: previousSignificant(tokens, i) }, (a) =>
    translateTokens(a, options),
  );
  const { name } = call;
  const rewrite = rewrites[name];
  if (rewrite) return rewrite(call, { ...options, translate: (inner) => translateTokens(inner, options) });
  // Typed as Presto types them (a bigint sum stays bigint, an average is a double): functions.ts.
  if (PRESTO_TYPED.has(name)) return `svc_fn.${name}(${translateTokens(tokens.slice(open + 1, close), options)})`;
  if (PASS_THROUGH.has(name)) return `${name}(${translateTokens(tokens.slice(open + 1, close), options)})`;
  throw new QueryRefused(
    `The function ${name} is not supported on this query engine; docs/query-dialect.md lists the functions you can use.`,
  );
}

/**
 * `UNNEST(x) AS t(c)` over the JSON text arrays and maps are stored as: a set-returning function of svc_fn
 * (functions.ts), one row per element (or map value) for one column, per position or key and value for two.
 * PostgreSQL lets a function in FROM read the tables before it, so `CROSS JOIN` needs no LATERAL.
 */
function translateUnnest(tokens: Token[], clause: UnnestClause, options: TranslateOptions): string {
  const arg = translateTokens(tokens.slice(clause.open + 1, clause.close), options).trim();
  const fn = clause.columns.length === 1 ? 'svc_fn.unnest_values' : 'svc_fn.unnest_entries';
  const name = (t: Token) => nameText([t], 0);
  return `${fn}((${arg})::text) AS ${name(clause.alias)}(${clause.columns.map(name).join(', ')})`;
}

function translateTokens(tokens: Token[], options: TranslateOptions): string {
  let out = '';
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    const upper = t.kind === 'word' ? t.text.toUpperCase() : '';
    const next = nextSignificant(tokens, i + 1);
    const nextToken = tokens[next];
    const opens = nextToken?.kind === 'punct' && nextToken.text === '(';
    if ((upper === 'CAST' || upper === 'TRY_CAST') && opens) {
      const close = matching(tokens, next, '(', ')');
      if (close < 0) throw new QueryRefused('A bracket of CAST is not closed.');
      out += rewriteCast(tokens, i, next, close, options);
      i = close + 1;
      continue;
    }
    if (upper === 'ARRAY' && nextToken?.kind === 'punct' && nextToken.text === '[') {
      const close = matching(tokens, next, '[', ']');
      if (close > 0) {
        out += `jsonb_build_array(${translateTokens(tokens.slice(next + 1, close), options)})`;
        i = close + 1;
        continue;
      }
    }
    if ((upper === 'DATE' || upper === 'TIMESTAMP') && nextToken?.kind === 'string') {
      out += `${nextToken.text}::text`;
      i = next + 1;
      continue;
    }
    // The job's "now" as timestamp text, as now() and DuckDB's translation give it (not the server's clock).
    if (upper === 'CURRENT_DATE' || upper === 'CURRENT_TIMESTAMP') {
      const now = timestampText(options.nowMs);
      out += `${quote(upper === 'CURRENT_DATE' ? now.slice(0, 10) : now)}::text`;
      i++;
      continue;
    }
    if (upper === 'REGEXP') {
      const not = /\bNOT(\s*)$/i.exec(out);
      out = not ? `${out.slice(0, not.index)}!~${not[1]}` : `${out}~`;
      i++;
      continue;
    }
    const unnest = upper === 'UNNEST' ? unnestAt(tokens, i) : null;
    if (unnest) {
      out += translateUnnest(tokens, unnest, options);
      i = unnest.end;
      continue;
    }
    if ((t.kind === 'word' || t.kind === 'quoted') && opens && !SQL_WORDS.has(upper) && isCall(tokens, i, next)) {
      const close = matching(tokens, next, '(', ')');
      if (close < 0) throw new QueryRefused(`A bracket of ${t.text}( is not closed.`);
      out += translateCall(tokens, i, next, close, options);
      i = close + 1;
      continue;
    }
    out += nameText(tokens, i);
    i++;
    // `FROM mydb.table`: the job's own database is the schema on the search path; drop the qualifier.
    const skipped = skipDatabase(tokens, upper, i, next, options.database);
    if (skipped) {
      out += skipped.between;
      i = skipped.at;
    }
  }
  return out;
}

/** The query rewritten for PostgreSQL (QueryRefused when it uses what cannot run there). */
export function translateToPostgres(sql: string, options: TranslateOptions): string {
  const tokens = tokenize(sql);
  checkLexing(tokens);
  // A trailing semicolon would end the cursor's declaration.
  return translateTokens(withNullOrder(withoutTrailing(tokens)), {
    ...options,
    database: options.database.toLowerCase(),
  });
}
