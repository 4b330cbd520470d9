import { intervalRange } from '../intervals';
import { PASS_THROUGH, PRESTO_TYPED, SQL_WORDS } from '../postgres/allowedFunctions';
import { contextWordIsName } from '../postgres/identifiers';
import { checkLexing, isCall } from '../postgres/translate';
import {
  type Call,
  COMMON_REWRITES,
  checkArity,
  inRange,
  literalOf,
  numericElements,
  parseCall,
  quote,
  refusing,
  skipDatabase,
  splitArguments,
  typedCastParts,
  withoutTrailing,
} from '../rewriting';
import { javaPatternParts, parseTime, timestampText } from '../timeFormats';
import { ABBREVIATIONS, FIXED, type Zone, zoneOf } from '../timeZones';
import { castKind, matching, nextSignificant, QueryRefused, significant, type Token, tokenize } from '../tokens';
import { type UnnestClause, unnestAt } from '../unnest';
import { UDF_NAMES } from './functions';
import { refuseFunction } from './sandbox';

/**
 * The Presto dialect on DuckDB. Names are quoted, so a column called `user` or `current_role` is the column, as
 * in Presto (DuckDB matches quoted names without regard to case, as Presto does unquoted ones). Functions are
 * rewritten to native DuckDB SQL where it gives the same value (the aggregates, TD_TIME_RANGE and TD_INTERVAL
 * with literal bounds, TD_TIME_FORMAT with a pattern strftime can write), to the `svc_*` functions of
 * functions.ts for the rest of the TD and Presto surface, or passed through when they are on the allow-list
 * PostgreSQL uses too; anything else is refused by name. The sandbox (sandbox.ts) checks the result again on
 * DuckDB's own parse tree.
 */

export interface DuckTranslateOptions {
  /** The job's database name, which may qualify tables (the qualifier is dropped). */
  database: string;
  /** The job's "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). */
  nowMs: number;
}

type Rewrite = (call: Call, options: DuckTranslateOptions) => string;

/** `svc_<name>(args…)`, with NULL literals typed (DuckDB cannot hand an untyped NULL to a function). */
const udf = (name: string, args: string[]) =>
  `svc_${name}(${args.map((a) => (/^null$/i.test(a) ? 'CAST(NULL AS VARCHAR)' : a)).join(', ')})`;

/** A literal argument's value, or undefined when it is an expression. */
const literal = (call: Call, index: number) => literalOf(call.raw[index]);

/** A literal time-zone argument's zone (checked as on SQLite); undefined for an expression. */
function literalZone(call: Call, index: number): Zone | undefined {
  const name = literal(call, index);
  if (name === undefined) return undefined;
  return refusing(() => zoneOf(name === null ? null : String(name)));
}

/** A literal TD_TIME_RANGE bound in seconds, null when open; undefined when it is an expression. */
function literalBound(call: Call, index: number, zone: Zone): number | null | undefined {
  const value = literal(call, index);
  if (value === null || value === undefined || typeof value === 'number') return value;
  const ms = parseTime(value, zone);
  if (ms === null) throw new QueryRefused(`TD_TIME_RANGE: ${JSON.stringify(value)} is not a date or time.`);
  return ms / 1000;
}

const STRFTIME: Record<string, Record<number, string>> = {
  y: { 4: '%Y' },
  M: { 2: '%m' },
  d: { 2: '%d' },
  H: { 2: '%H' },
  m: { 2: '%M' },
  s: { 2: '%S' },
};

/** A Java pattern as a strftime format when each part has an exact equivalent, else null. */
function strftimeFormat(pattern: string): string | null {
  let format = '';
  for (const part of javaPatternParts(pattern)) {
    if ('text' in part) format += part.text.replace(/%/g, '%%');
    else {
      const field = STRFTIME[part.letter]?.[part.n];
      if (!field) return null;
      format += field;
    }
  }
  return format;
}

/**
 * A Unix time in seconds as a local timestamp of a zone: for UTC and fixed offsets a plain make_timestamp (no
 * time-zone library on the way, the fast path of the daily buckets), for other zones ICU's timezone().
 */
function localTimestamp(time: string, zone: Zone): string {
  if (zone.name === 'UTC' || FIXED.test(zone.name)) {
    const offset = zone.offsetAt(0) * 60;
    const shifted = offset === 0 ? `CAST(${time} AS DOUBLE)` : `(CAST(${time} AS DOUBLE) + ${offset})`;
    return `make_timestamp(CAST(floor(${shifted} * 1000000) AS BIGINT))`;
  }
  const iana = ABBREVIATIONS[zone.name] ?? zone.name;
  return `timezone(${quote(iana)}, to_timestamp(CAST(${time} AS DOUBLE)))`;
}

const timeFunctions: Record<string, Rewrite> = {
  td_time_range(call) {
    checkArity(call, 2, 4, 'TD_TIME_RANGE');
    const zone = literalZone(call, 3);
    const from = zone && literalBound(call, 1, zone);
    const to = zone && literalBound(call, 2, zone);
    if (from === undefined || to === undefined) return udf('td_time_range', call.args);
    return inRange(call.args[0] as string, from, to);
  },
  td_interval(call, { nowMs }) {
    checkArity(call, 2, 3, 'TD_INTERVAL');
    const spec = literal(call, 1);
    const zone = literalZone(call, 2);
    if (spec === undefined || zone === undefined) return udf('td_interval', [...call.args, String(nowMs)]);
    if (spec === null) return 'CAST(NULL AS BOOLEAN)';
    const [from, to] = refusing(() => intervalRange(String(spec), nowMs, zone));
    return inRange(call.args[0] as string, from / 1000, to / 1000);
  },
  td_time_format(call) {
    checkArity(call, 2, 3, 'TD_TIME_FORMAT');
    const pattern = literal(call, 1);
    const zone = literalZone(call, 2);
    const format = typeof pattern === 'string' ? strftimeFormat(pattern) : null;
    if (format === null || zone === undefined) return udf('td_time_format', call.args);
    return `strftime(${localTimestamp(call.args[0] as string, zone)}, ${quote(format)})`;
  },
  td_scheduled_time(call, { nowMs }) {
    checkArity(call, 0, 0, 'TD_SCHEDULED_TIME');
    return `CAST(${Math.floor(nowMs / 1000)} AS BIGINT)`;
  },
  now(call, { nowMs }) {
    checkArity(call, 0, 0);
    return quote(timestampText(nowMs));
  },
};

function percentile(call: Call, options: DuckTranslateOptions): string {
  checkArity(call, 2, 2);
  const p = (call.raw[1] as Token[]).filter(significant);
  const check = (value: unknown) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0 || n > 1) {
      throw new QueryRefused('approx_percentile: the percentage must be between 0 and 1.');
    }
  };
  if (p[0]?.kind === 'word' && p[0].text.toUpperCase() === 'ARRAY' && p[1]?.text === '[') {
    const close = matching(p, 1, '[', ']');
    for (const item of splitArguments(p.slice(2, close))) check(literalOf(item));
    return `quantile_disc(${call.args[0]}, [${translateTokens(p.slice(2, close), options)}])`;
  }
  const value = literal(call, 1);
  if (value !== undefined) check(value);
  return `quantile_disc(${call.args[0]}, ${call.args[1]})`;
}

const otherFunctions: Record<string, Rewrite> = {
  round(call) {
    checkArity(call, 1, 2);
    const digits = call.args.length > 1 ? `, ${call.args[1]}` : '';
    return `round(CAST(${call.args[0]} AS DOUBLE)${digits})`;
  },
  approx_percentile: percentile,
  // DuckDB's count_if of no rows is NULL; Presto's is 0, as a count.
  count_if(call) {
    checkArity(call, 1, 1);
    return `count(CASE WHEN ${call.args[0]} THEN 1 END)`;
  },
  // The remainder with the dividend's sign, of the arguments' type, as Presto's.
  mod(call) {
    checkArity(call, 2, 2);
    return `((${call.args[0]}) % (${call.args[1]}))`;
  },
  arbitrary(call) {
    checkArity(call, 1, 1);
    return `any_value(${call.args[0]})`;
  },
  max_by(call) {
    checkArity(call, 2, 2);
    return `arg_max_null(${call.args[0]}, ${call.args[1]})`;
  },
  min_by(call) {
    checkArity(call, 2, 2);
    return `arg_min_null(${call.args[0]}, ${call.args[1]})`;
  },
  // A number when the container is a literal of numbers (rewriting.ts numericElements), else text.
  element_at(call) {
    const element = udf('element_at', call.args);
    const kind = numericElements(call.raw[0]);
    if (kind === null) return element;
    const number = `CAST(${element} AS DOUBLE)`;
    return kind === 'bigint' ? `CAST(${number} AS BIGINT)` : number;
  },
  array_agg(call) {
    checkArity(call, 1, 1);
    return `array_agg(${call.args[0]})`;
  },
};

const rewrites: Record<string, Rewrite> = { ...COMMON_REWRITES, ...timeFunctions, ...otherFunctions };

function translateCall(tokens: Token[], i: number, open: number, close: number, options: DuckTranslateOptions) {
  // `x.f()` is a method call in DuckDB: the name right after a dot is refused as qualified.
  const call = parseCall(tokens, i, { open, close, previous: tokens[i - 1] }, (a) => translateTokens(a, options));
  const name = call.name;
  if (rewrites[name]) return (rewrites[name] as Rewrite)(call, options);
  if (UDF_NAMES.has(name)) return udf(name, call.args);
  // DuckDB types these aggregates as Presto does (its hugeint sums are read as bigint: resultValues.ts).
  if (PASS_THROUGH.has(name) || PRESTO_TYPED.has(name))
    return `${name}(${translateTokens(tokens.slice(open + 1, close), options)})`;
  refuseFunction(name);
}

function rewriteCast(tokens: Token[], word: number, open: number, close: number, options: DuckTranslateOptions) {
  const { value, typeText, tryCast } = typedCastParts(tokens, word, open, close);
  const expr = translateTokens(value, options).trim();
  const kind = castKind(typeText);
  if (kind === 'text') return `CAST(${expr} AS VARCHAR)`;
  if (kind === null) throw new QueryRefused(`CAST to ${typeText} is not supported.`);
  return udf(`cast_${kind}`, [expr, String(tryCast)]);
}

/** Words that keep their meaning as SQL; every other bare word is a name and is quoted. */
const KEYWORDS = new Set([
  ...SQL_WORDS,
  ...'ASC DESC NULL TRUE FALSE LEFT RIGHT INNER OUTER FULL CROSS NATURAL NULLS FIRST LAST ROWS RANGE UNBOUNDED PRECEDING FOLLOWING CURRENT ROW RECURSIVE WINDOW ESCAPE ILIKE TABLE CAST TRY_CAST ARRAY DATE TIMESTAMP INTERVAL'.split(
    ' ',
  ),
]);

/** A name as DuckDB reads it: a bare word or backquoted name becomes a double-quoted one. */
function nameText(t: Token): string {
  if (t.kind === 'quoted' && t.text.startsWith('`')) return `"${t.text.slice(1, -1).replace(/"/g, '""')}"`;
  if (t.kind === 'word' && !KEYWORDS.has(t.text.toUpperCase())) return `"${t.text}"`;
  return t.text;
}

/**
 * `UNNEST(x) AS t(c)` over the JSON text arrays and maps are stored as: a lateral subquery unnesting the lists of
 * svc_unnest_values (and svc_unnest_keys for `t(k, v)`: the positions or keys), one row per element.
 */
function translateUnnest(tokens: Token[], clause: UnnestClause, options: DuckTranslateOptions): string {
  const arg = translateTokens(tokens.slice(clause.open + 1, clause.close), options).trim();
  const columns = clause.columns.map(nameText);
  const values = `unnest(svc_unnest_values(${arg}))`;
  const items =
    columns.length === 1
      ? `${values} AS ${columns[0]}`
      : `unnest(svc_unnest_keys(${arg})) AS ${columns[0]}, ${values} AS ${columns[1]}`;
  return `LATERAL (SELECT ${items}) AS ${nameText(clause.alias)}`;
}

/** `a [NOT] REGEXP b` (SQLite's operator) as svc_regexp_like over the operands next to it. */
function rewriteRegexp(tokens: Token[]): Token[] {
  const out = [...tokens];
  for (let i = out.length - 1; i >= 0; i--) {
    const t = out[i] as Token;
    if (t.kind !== 'word' || t.text.toUpperCase() !== 'REGEXP') continue;
    let left = i - 1;
    while (left >= 0 && !significant(out[left] as Token)) left--;
    const not = out[left]?.kind === 'word' && (out[left] as Token).text.toUpperCase() === 'NOT';
    if (not) {
      left--;
      while (left >= 0 && !significant(out[left] as Token)) left--;
    }
    let start = left;
    if (out[left]?.text === ')') {
      let depth = 0;
      for (start = left; start >= 0; start--) {
        if (out[start]?.text === ')') depth++;
        else if (out[start]?.text === '(' && --depth === 0) break;
      }
      const name = start - 1;
      if (out[name]?.kind === 'word') start = name;
    }
    const right = nextSignificant(out, i + 1);
    const end = out[right]?.text === '(' ? matching(out, right, '(', ')') : right;
    if (start < 0 || end < 0 || right >= out.length) throw new QueryRefused('REGEXP needs a value on each side.');
    const call: Token[] = [
      { kind: 'punct', text: '(' },
      ...(not ? [{ kind: 'punct', text: 'NOT ' } as Token] : []),
      { kind: 'word', text: 'regexp_like' },
      { kind: 'punct', text: '(' },
      ...out.slice(start, left + 1),
      { kind: 'punct', text: ',' },
      ...out.slice(right, end + 1),
      { kind: 'punct', text: ')' },
      { kind: 'punct', text: ')' },
    ];
    out.splice(start, end + 1 - start, ...call);
  }
  return out;
}

function translateTokens(tokens: Token[], options: DuckTranslateOptions): string {
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
        out += `json_array(${translateTokens(tokens.slice(next + 1, close), options)})`;
        i = close + 1;
        continue;
      }
    }
    if ((upper === 'DATE' || upper === 'TIMESTAMP') && nextToken?.kind === 'string') {
      out += nextToken.text;
      i = next + 1;
      continue;
    }
    if (upper === 'CURRENT_DATE' || upper === 'CURRENT_TIMESTAMP') {
      const now = timestampText(options.nowMs);
      out += quote(upper === 'CURRENT_DATE' ? now.slice(0, 10) : now);
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
    // A column called `offset` or `window`: a name where Presto's grammar does not read that keyword.
    out += contextWordIsName(tokens, i) ? `"${t.text}"` : nameText(t);
    // `FROM mydb.table`: the job's own database is the file's default schema; drop the qualifier.
    const skipped = skipDatabase(tokens, upper, i + 1, next, options.database);
    i = skipped ? skipped.at : i + 1;
    out += skipped?.between ?? '';
  }
  return out;
}

/** The query rewritten for DuckDB (QueryRefused when it uses what cannot run there). */
export function translateToDuckDB(sql: string, options: DuckTranslateOptions): string {
  const tokens = tokenize(sql);
  checkLexing(tokens);
  return translateTokens(rewriteRegexp(withoutTrailing(tokens)), {
    ...options,
    database: options.database.toLowerCase(),
  });
}
