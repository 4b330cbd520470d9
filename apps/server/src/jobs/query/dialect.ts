/**
 * The Presto dialect on SQLite: the few rewrites SQLite cannot express itself. Everything else (functions)
 * is registered on the connection; see docs/query-dialect.md. The tokenizer is shared (tokens.ts).
 */
import {
  castKind,
  matching,
  nextSignificant,
  QueryRefused,
  sameName,
  significant,
  type Token,
  tokenize,
} from './tokens';

export { QueryRefused, type Token, tokenize };

function rewriteCast(tokens: Token[], word: number, open: number, close: number, database: string): string | null {
  let depth = 0;
  let as = -1;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'punct' && t.text === '(') depth++;
    else if (t.kind === 'punct' && t.text === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && t.text.toUpperCase() === 'AS') as = i;
  }
  if (as < 0) return null;
  const expr = translateTokens(tokens.slice(open + 1, as), database).trim();
  const typeText = tokens
    .slice(as + 1, close)
    .filter(significant)
    .map((t) => t.text)
    .join('')
    .toLowerCase();
  const tryCast = (tokens[word] as Token).text.toUpperCase() === 'TRY_CAST';
  const kind = castKind(typeText);
  if (kind === 'text') return `CAST(${expr} AS TEXT)`;
  if (kind !== null) return `${tryCast ? 'presto_try_cast' : 'presto_cast'}(${expr}, '${kind}')`;
  return `CAST(${expr} AS ${tokens
    .slice(as + 1, close)
    .map((t) => t.text)
    .join('')})`;
}

function translateTokens(tokens: Token[], database: string): string {
  let out = '';
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as Token;
    const upper = t.kind === 'word' ? t.text.toUpperCase() : '';
    const next = nextSignificant(tokens, i + 1);
    const nextToken = tokens[next];
    if ((upper === 'CAST' || upper === 'TRY_CAST') && nextToken?.text === '(') {
      const close = matching(tokens, next, '(', ')');
      const rewritten = close < 0 ? null : rewriteCast(tokens, i, next, close, database);
      if (rewritten !== null) {
        out += rewritten;
        i = close + 1;
        continue;
      }
    }
    if (upper === 'ARRAY' && nextToken?.kind === 'punct' && nextToken.text === '[') {
      const close = matching(tokens, next, '[', ']');
      if (close > 0) {
        out += `json_array(${translateTokens(tokens.slice(next + 1, close), database)})`;
        i = close + 1;
        continue;
      }
    }
    if ((upper === 'DATE' || upper === 'TIMESTAMP') && nextToken?.kind === 'string') {
      out += nextToken.text;
      i = next + 1;
      continue;
    }
    out += t.text;
    i++;
    // `FROM mydb.table`: the job's own database is SQLite's main schema; drop the qualifier.
    if ((upper === 'FROM' || upper === 'JOIN') && sameName(nextToken, database)) {
      const dot = nextSignificant(tokens, next + 1);
      if (tokens[dot]?.text === '.') {
        out += tokens
          .slice(i, next)
          .map((s) => s.text)
          .join('');
        i = nextSignificant(tokens, dot + 1);
      }
    }
  }
  return out;
}

/** The query rewritten for SQLite. `database` is the job's database name, which may qualify tables. */
export function translate(sql: string, database: string): string {
  return translateTokens(tokenize(sql), database.toLowerCase());
}
