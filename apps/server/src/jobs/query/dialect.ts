/**
 * The Presto dialect on SQLite: the few rewrites SQLite cannot express itself. Everything else (functions)
 * is registered on the connection; see docs/query-dialect.md. The tokenizer is shared (tokens.ts).
 */

import { castParts } from './rewriting';
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
import { nameOf, unnestClauses } from './unnest';

export { QueryRefused, type Token, tokenize };

function rewriteCast(tokens: Token[], word: number, open: number, close: number, database: string): string | null {
  const parts = castParts(tokens, word, open, close);
  if (!parts) return null;
  const expr = translateTokens(parts.value, database).trim();
  const kind = castKind(parts.typeText);
  if (kind === 'text') return `CAST(${expr} AS TEXT)`;
  if (kind !== null) return `${parts.tryCast ? 'presto_try_cast' : 'presto_cast'}(${expr}, '${kind}')`;
  return `CAST(${expr} AS ${parts.typeTokens.map((t) => t.text).join('')})`;
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

const word = (text: string): Token => ({ kind: 'word', text });

/**
 * `CROSS JOIN UNNEST(x) AS t(c)` (or `t(k, v)` for a map) becomes the table function `presto_unnest(x) AS t`
 * (sqlFunctions.ts; arrays and maps are JSON text): references to `c` (or `t.c`) read `t.unnest_value`
 * (`k` reads `t.unnest_key`), and a select item that is just the column keeps its name.
 */
function rewriteUnnest(tokens: Token[]): Token[] {
  const renames = new Map<string, { alias: string; column: 'unnest_key' | 'unnest_value' }>();
  const replaced = new Map<number, { end: number; tokens: Token[] }>();
  for (const clause of unnestClauses(tokens)) {
    const { alias, columns } = clause;
    columns.forEach((c, n) => {
      renames.set(nameOf(c) as string, {
        alias: alias.text,
        column: columns.length === 2 && n === 0 ? 'unnest_key' : 'unnest_value',
      });
    });
    replaced.set(clause.start, {
      end: clause.end,
      tokens: [word('presto_unnest'), ...tokens.slice(clause.open, clause.close + 1), word(' AS '), { ...alias }],
    });
  }
  if (replaced.size === 0) return tokens;

  const out: Token[] = [];
  const prevOf = (i: number) => {
    let j = i - 1;
    while (j >= 0 && !significant(tokens[j] as Token)) j--;
    return j;
  };
  const selectAt: boolean[] = [false];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const swap = replaced.get(i);
    if (swap) {
      out.push(...swap.tokens);
      i = swap.end - 1;
      continue;
    }
    const t = tokens[i] as Token;
    const upperText = t.kind === 'word' ? t.text.toUpperCase() : '';
    if (t.kind === 'punct' && t.text === '(') selectAt[++depth] = false;
    else if (t.kind === 'punct' && t.text === ')') depth = Math.max(0, depth - 1);
    else if (upperText === 'SELECT') selectAt[depth] = true;
    else if (upperText === 'FROM') selectAt[depth] = false;
    const rename = renames.get(nameOf(t) ?? '');
    const prev = prevOf(i);
    const next = nextSignificant(tokens, i + 1);
    if (
      !rename ||
      tokens[next]?.text === '(' ||
      (tokens[prev]?.kind === 'word' && (tokens[prev] as Token).text.toUpperCase() === 'AS')
    ) {
      out.push(t);
      continue;
    }
    let itemStart = prev;
    if (tokens[prev]?.text === '.') {
      // `t.c`: only the unnest's own alias is rewritten; the qualifier is already in the output.
      const qualifier = prevOf(prev);
      if (nameOf(tokens[qualifier]) !== nameOf(word(rename.alias))) {
        out.push(t);
        continue;
      }
      out.push(word(rename.column));
      itemStart = prevOf(qualifier);
    } else out.push(word(`${rename.alias}.${rename.column}`));
    const before = tokens[itemStart];
    const after = tokens[next];
    const startsItem =
      before && (before.text === ',' || ['SELECT', 'DISTINCT', 'ALL'].includes(before.text.toUpperCase()));
    const endsItem = !after || after.text === ',' || after.text.toUpperCase() === 'FROM';
    if (selectAt[depth] && startsItem && endsItem) out.push(word(` AS ${t.text}`));
  }
  return out;
}

/** The query rewritten for SQLite. `database` is the job's database name, which may qualify tables. */
export function translate(sql: string, database: string): string {
  return translateTokens(rewriteUnnest(tokenize(sql)), database.toLowerCase());
}
