import { intervalRange, parseDuration, unitOfName } from '../intervals';
import {
  type Call,
  COMMON_REWRITES,
  checkArity,
  inRange,
  parseCall,
  quote,
  refusing,
  skipDatabase,
  splitArguments,
  typedCastParts,
  withoutTrailing,
} from '../rewriting';
import { jsonPathSteps } from '../sqlFunctions';
import { formatJava, javaPatternParts, mysqlParser, parseTime, timestampText } from '../timeFormats';
import { type Zone, zoneOf } from '../timeZones';
import { castKind, matching, nextSignificant, QueryRefused, significant, type Token, tokenize } from '../tokens';
import { type UnnestClause, unnestAt } from '../unnest';
import { PASS_THROUGH, PRESTO_TYPED, SQL_WORDS } from './allowedFunctions';
import { nameText } from './identifiers';
import { javaTemplate } from './javaTemplate';

/**
 * The Presto dialect on PostgreSQL. Every function call is rewritten or checked against a list of allowed
 * PostgreSQL built-ins (allowedFunctions.ts): a call to anything else (set_config, query_to_xml, pg_*…) is
 * refused, so a query cannot leave the sandbox its role and read-only transaction put it in. Arguments that
 * shape a computation (time zones, patterns, TD_INTERVAL specs, units) must be literals: they are checked and
 * folded here with the same TypeScript rules the SQLite functions use, and their errors are refused before
 * the query runs. Booleans are PostgreSQL booleans; the runner reports them as 1 and 0 as SQLite does.
 */

export interface TranslateOptions {
  /** The job's database name, which may qualify tables (the qualifier is dropped). */
  database: string;
  /** The job's "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). */
  nowMs: number;
}

type Literal = string | number | null | undefined;

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

function literalArg(call: Call, index: number, what: string): Literal {
  const value = literalOf(call.raw[index]);
  if (value === undefined) {
    throw new QueryRefused(
      `${call.name}: on PostgreSQL the ${what} must be written as a literal (a quoted text or a number), not an expression.`,
    );
  }
  return value;
}

/** The zone of a literal time-zone argument (checked as on SQLite), or UTC when it is missing or NULL. */
function zoneArg(call: Call, index: number): Zone {
  const name = literalArg(call, index, 'time zone');
  return refusing(() => zoneOf(name === null ? null : String(name)));
}

const zoneLabel = (zone: Zone) => (zone.name === 'UTC' ? 'NULL' : quote(zone.name));

const UNIT_NAMES = {
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  M: 'month',
  q: 'quarter',
  y: 'year',
} as const;

const seconds = (ms: number) => String(ms / 1000);

function timeRangeBound(call: Call, index: number, zone: Zone): string | null {
  const value = literalOf(call.raw[index]);
  if (value === null) return null;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const ms = parseTime(value, zone);
    if (ms === null) throw new QueryRefused(`TD_TIME_RANGE: ${JSON.stringify(value)} is not a date or time.`);
    return seconds(ms);
  }
  return `svc_fn.bound_seconds((${call.args[index]})::text, ${zoneLabel(zone)}, 'TD_TIME_RANGE')`;
}

const javaParts = (pattern: string) =>
  `ARRAY[${javaPatternParts(pattern)
    .map((p) => quote('text' in p ? `T${p.text}` : `L${p.letter}${p.n}`))
    .join(', ')}]::text[]`;

/**
 * A literal Java pattern applied to a local timestamp `wall` (for to_char) or to an instant and a zone label
 * (for svc_fn.format_java); NULL for a NULL pattern.
 */
function formatJavaSql(call: Call, index: number, wall: string, instant: string, label: string): string {
  const pattern = literalArg(call, index, 'date pattern');
  if (pattern === null) return 'NULL::text';
  // Formatting once checks every pattern letter with the SQLite path's rule and message.
  refusing(() => formatJava(0, String(pattern), zoneOf('UTC')));
  const template = javaTemplate(String(pattern));
  if (template !== null) return `to_char(${wall}, ${quote(template)})`;
  return `svc_fn.format_java(${instant}, ${label}, ${javaParts(String(pattern))})`;
}

const bool = (expr: string) => `(${expr})`;

/**
 * A timestamp argument as an instant and the label of its zone. `from_unixtime(x[, tz])` is taken as it is,
 * without the round trip through timestamp text; anything else is timestamp text, parsed.
 */
function timestampArg(call: Call, index: number, options: TranslateOptions): { instant: string; label: string } {
  const raw = call.raw[index] ?? [];
  const first = nextSignificant(raw, 0);
  const open = nextSignificant(raw, first + 1);
  const close = raw[open]?.text === '(' ? matching(raw, open, '(', ')') : -1;
  if (
    raw[first]?.kind === 'word' &&
    raw[first].text.toLowerCase() === 'from_unixtime' &&
    close > 0 &&
    nextSignificant(raw, close + 1) === raw.length
  ) {
    const innerRaw = splitArguments(raw.slice(open + 1, close));
    const inner: Call = {
      name: 'from_unixtime',
      raw: innerRaw,
      args: innerRaw.map((a) => translateTokens(a, options).trim()),
    };
    checkArity(inner, 1, 2);
    const zone = inner.args.length > 1 ? zoneArg(inner, 1) : zoneOf('UTC');
    return { instant: `svc_fn.instant_of((${inner.args[0]})::double precision)`, label: zoneLabel(zone) };
  }
  const text = `(${call.args[index]})::text`;
  return { instant: `svc_fn.ts_must(${text}, '${call.name}')`, label: `svc_fn.ts_label(${text})` };
}

type Rewrite = (call: Call, options: TranslateOptions) => string;

const timeFunctions: Record<string, Rewrite> = {
  td_time_range(call) {
    checkArity(call, 2, 4, 'TD_TIME_RANGE');
    const zone = zoneArg(call, 3);
    return inRange(call.args[0] as string, timeRangeBound(call, 1, zone), timeRangeBound(call, 2, zone));
  },
  td_interval(call, { nowMs }) {
    checkArity(call, 2, 3, 'TD_INTERVAL');
    const spec = literalArg(call, 1, 'interval');
    const zone = zoneArg(call, 2);
    if (spec === null) return 'NULL::boolean';
    const [from, to] = refusing(() => intervalRange(String(spec), nowMs, zone));
    return inRange(call.args[0] as string, seconds(from), seconds(to));
  },
  td_time_format(call) {
    checkArity(call, 2, 3, 'TD_TIME_FORMAT');
    const label = zoneLabel(zoneArg(call, 2));
    const instant = `to_timestamp((${call.args[0]})::double precision)`;
    return formatJavaSql(call, 1, `(${instant} AT TIME ZONE svc_fn.zone(${label}))`, instant, label);
  },
  td_time_parse(call) {
    checkArity(call, 1, 2, 'TD_TIME_PARSE');
    return `svc_fn.td_time_parse((${call.args[0]})::text, ${zoneLabel(zoneArg(call, 1))})`;
  },
  td_time_add(call) {
    checkArity(call, 2, 3, 'TD_TIME_ADD');
    const text = literalArg(call, 1, 'duration');
    const zone = zoneArg(call, 2);
    if (text === null) return 'NULL::bigint';
    const d = parseDuration(String(text));
    if (!d) throw new QueryRefused(`TD_TIME_ADD: "${String(text)}" is not a duration such as '1d' or '-2h'.`);
    return `svc_fn.add_units((${call.args[0]})::double precision, ${d.n}, '${d.unit}', ${zoneLabel(zone)})`;
  },
  td_date_trunc(call) {
    checkArity(call, 2, 3, 'TD_DATE_TRUNC');
    const unit = refusing(() => unitOfName(String(literalArg(call, 0, 'unit'))));
    const zone = zoneArg(call, 2);
    return `svc_fn.trunc_seconds((${call.args[1]})::double precision, '${UNIT_NAMES[unit]}', ${zoneLabel(zone)})`;
  },
  td_scheduled_time(call, { nowMs }) {
    checkArity(call, 0, 0, 'TD_SCHEDULED_TIME');
    return `${Math.floor(nowMs / 1000)}::bigint`;
  },
  now(call, { nowMs }) {
    checkArity(call, 0, 0);
    return `${quote(timestampText(nowMs))}::text`;
  },
  from_unixtime(call) {
    checkArity(call, 1, 2);
    const zone = call.args.length > 1 ? zoneArg(call, 1) : zoneOf('UTC');
    return `svc_fn.ts_text(svc_fn.instant_of((${call.args[0]})::double precision), ${zoneLabel(zone)})`;
  },
  to_unixtime(call, options) {
    checkArity(call, 1, 1);
    return `extract(epoch FROM ${timestampArg(call, 0, options).instant})::double precision`;
  },
  date_format(call, options) {
    checkArity(call, 2, 2);
    const { instant, label } = timestampArg(call, 0, options);
    return `svc_fn.format_mysql(${instant}, ${label}, (${call.args[1]})::text)`;
  },
  format_datetime(call, options) {
    checkArity(call, 2, 2);
    const { instant, label } = timestampArg(call, 0, options);
    return formatJavaSql(call, 1, `(${instant} AT TIME ZONE svc_fn.zone(${label}))`, instant, label);
  },
  date_parse(call) {
    checkArity(call, 2, 2);
    const format = literalArg(call, 1, 'format');
    if (format === null) return 'NULL::text';
    const parser = mysqlParser(String(format));
    const fields = `ARRAY[${parser.fields.map(quote).join(', ')}]::text[]`;
    return `svc_fn.date_parse((${call.args[0]})::text, ${quote(parser.regex.source)}, ${fields}, ${quote(String(format))})`;
  },
  from_iso8601_timestamp(call) {
    checkArity(call, 1, 1);
    return `svc_fn.ts_text(svc_fn.ts_must((${call.args[0]})::text, 'from_iso8601_timestamp'), NULL)`;
  },
  to_iso8601(call, options) {
    checkArity(call, 1, 1);
    const { instant } = timestampArg(call, 0, options);
    return `to_char(${instant} AT TIME ZONE 'UTC', 'FMYYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  },
  date_trunc(call, options) {
    checkArity(call, 2, 2);
    const unit = refusing(() => unitOfName(String(literalArg(call, 0, 'unit'))));
    const { instant, label } = timestampArg(call, 1, options);
    return `svc_fn.trunc_text('${UNIT_NAMES[unit]}', ${instant}, ${label})`;
  },
};

for (const field of ['year', 'month', 'day', 'hour', 'minute', 'second', 'day_of_week']) {
  timeFunctions[field] = (call, options) => {
    checkArity(call, 1, 1);
    const { instant, label } = timestampArg(call, 0, options);
    return `svc_fn.field_of(${instant}, ${label}, '${field}')`;
  };
}

/** The steps of a literal JSONPath argument as a text[] for `#>` (checked as on SQLite), or null for NULL. */
function jsonPathArg(call: Call): string | null {
  const path = literalArg(call, 1, 'JSON path');
  if (path === null) return null;
  const steps = refusing(() => jsonPathSteps(String(path)));
  return `ARRAY[${steps.map((s) => quote(String(s))).join(', ')}]::text[]`;
}

/** `$1` in a JavaScript replacement is `\1` in PostgreSQL's. */
function replacement(call: Call): string {
  if (call.args.length < 3) return "''";
  const text = literalOf(call.raw[2]);
  if (typeof text === 'string') return quote(text.replace(/\\/g, '\\\\').replace(/\$(\d|&)/g, '\\$1'));
  return `coalesce((${call.args[2]})::text, '')`;
}

const otherFunctions: Record<string, Rewrite> = {
  regexp_like(call) {
    checkArity(call, 2, 2);
    return `regexp_like((${call.args[0]})::text, (${call.args[1]})::text)`;
  },
  regexp_extract(call) {
    checkArity(call, 2, 3);
    return `svc_fn.regexp_extract((${call.args[0]})::text, (${call.args[1]})::text, (${call.args[2] ?? '0'})::int)`;
  },
  regexp_replace(call) {
    checkArity(call, 2, 3);
    return `regexp_replace((${call.args[0]})::text, (${call.args[1]})::text, ${replacement(call)}, 'g')`;
  },
  split_part(call) {
    checkArity(call, 3, 3);
    return `svc_fn.split_part((${call.args[0]})::text, (${call.args[1]})::text, (${call.args[2]})::bigint)`;
  },
  strpos(call) {
    checkArity(call, 2, 2);
    return `strpos((${call.args[0]})::text, (${call.args[1]})::text)`;
  },
  json_extract_scalar(call) {
    checkArity(call, 2, 2);
    const steps = jsonPathArg(call);
    return steps === null ? 'NULL::text' : `svc_fn.json_extract_scalar((${call.args[0]})::text, ${steps})`;
  },
  /** SQLite's json_extract: the value at a path, scalars as text, objects and arrays as JSON text. */
  json_extract(call) {
    checkArity(call, 2, 2);
    const steps = jsonPathArg(call);
    return steps === null ? 'NULL::text' : `svc_fn.json_value(svc_fn.try_json((${call.args[0]})::text) #> ${steps})`;
  },
  element_at(call) {
    checkArity(call, 2, 2);
    return `svc_fn.element_at((${call.args[0]})::text, (${call.args[1]})::text)`;
  },
  cardinality(call) {
    checkArity(call, 1, 1);
    return `svc_fn.cardinality((${call.args[0]})::text)`;
  },
  contains(call) {
    checkArity(call, 2, 2);
    return `svc_fn.contains((${call.args[0]})::text, (${call.args[1]})::text)`;
  },
  mod(call) {
    checkArity(call, 2, 2);
    return `svc_fn.mod(${call.args[0]}, ${call.args[1]})`;
  },
  round(call) {
    checkArity(call, 1, 2);
    const digits = call.args.length > 1 ? `, (${call.args[1]})::int` : '';
    return `round((${call.args[0]})::numeric${digits})::double precision`;
  },
  url_extract_host(call) {
    checkArity(call, 1, 1);
    return `svc_fn.url_extract_host((${call.args[0]})::text)`;
  },
  url_extract_path(call) {
    checkArity(call, 1, 1);
    return `svc_fn.url_extract_path((${call.args[0]})::text)`;
  },
  url_extract_parameter(call) {
    checkArity(call, 2, 2);
    return `svc_fn.url_extract_parameter((${call.args[0]})::text, (${call.args[1]})::text)`;
  },
  approx_percentile(call, options) {
    checkArity(call, 2, 2);
    const p = (call.raw[1] as Token[]).filter(significant);
    if (p[0]?.kind === 'word' && p[0].text.toUpperCase() === 'ARRAY' && p[1]?.text === '[') {
      const close = matching(p, 1, '[', ']');
      const list = translateTokens(p.slice(2, close), options);
      return `to_json(percentile_disc(ARRAY[${list}]::double precision[]) WITHIN GROUP (ORDER BY ${call.args[0]}))::text`;
    }
    return `percentile_disc((${call.args[1]})::double precision) WITHIN GROUP (ORDER BY ${call.args[0]})`;
  },
  count_if(call) {
    checkArity(call, 1, 1);
    return `count(CASE WHEN ${bool(call.args[0] as string)} THEN 1 END)`;
  },
  arbitrary(call) {
    checkArity(call, 1, 1);
    return `svc_fn.arbitrary(${call.args[0]})`;
  },
  max_by: byAggregate('DESC'),
  min_by: byAggregate('ASC'),
};

function byAggregate(direction: 'ASC' | 'DESC'): Rewrite {
  return (call) => {
    checkArity(call, 2, 2);
    const [value, key] = call.args;
    return `(array_agg(${value} ORDER BY ${key} ${direction}) FILTER (WHERE (${key}) IS NOT NULL))[1]`;
  };
}

const rewrites: Record<string, Rewrite> = { ...COMMON_REWRITES, ...timeFunctions, ...otherFunctions };

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
  if (rewrite) return rewrite(call, options);
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
  return translateTokens(withoutTrailing(tokens), { ...options, database: options.database.toLowerCase() });
}
