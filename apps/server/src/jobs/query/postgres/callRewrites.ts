import { intervalRange, parseDuration, unitOfName } from '../intervals';
import {
  type Call,
  COMMON_REWRITES,
  checkArity,
  inRange,
  type Literal,
  literalOf,
  numericElements,
  quote,
  refusing,
  splitArguments,
} from '../rewriting';
import { jsonPathSteps } from '../sqlFunctions';
import { formatJava, javaPatternParts, mysqlParser, parseTime, timestampText } from '../timeFormats';
import { type Zone, zoneOf } from '../timeZones';
import { matching, nextSignificant, QueryRefused, significant, type Token } from '../tokens';
import { javaTemplate } from './javaTemplate';

/**
 * How each Presto function with no PostgreSQL twin of the same meaning is written for PostgreSQL
 * (translate.ts applies them). Arguments that shape a computation (time zones, patterns, TD_INTERVAL specs,
 * units) must be literals: they are checked and folded here with the same TypeScript rules the SQLite
 * functions use, and their errors are refused before the query runs.
 */

export interface TranslateOptions {
  /** The job's database name, which may qualify tables (the qualifier is dropped). */
  database: string;
  /** The job's "now" (TD_SCHEDULED_TIME, TD_INTERVAL, now()). */
  nowMs: number;
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
function timestampArg(call: Call, index: number, options: RewriteContext): { instant: string; label: string } {
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
      args: innerRaw.map((a) => options.translate(a).trim()),
    };
    checkArity(inner, 1, 2);
    const zone = inner.args.length > 1 ? zoneArg(inner, 1) : zoneOf('UTC');
    return { instant: `svc_fn.instant_of((${inner.args[0]})::double precision)`, label: zoneLabel(zone) };
  }
  const text = `(${call.args[index]})::text`;
  return { instant: `svc_fn.ts_must(${text}, '${call.name}')`, label: `svc_fn.ts_label(${text})` };
}

/** What a rewrite is given: the job's options, and the translation of tokens it must translate itself. */
export interface RewriteContext extends TranslateOptions {
  translate(tokens: Token[]): string;
}

export type Rewrite = (call: Call, options: RewriteContext) => string;

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
    const element = `svc_fn.element_at((${call.args[0]})::text, (${call.args[1]})::text)`;
    const kind = numericElements(call.raw[0]);
    return kind === null ? element : `(${element})::double precision${kind === 'bigint' ? '::bigint' : ''}`;
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
      const list = options.translate(p.slice(2, close));
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
  // DISTINCT, ORDER BY inside, FILTER and OVER pass through to the aggregate (typedFunctions.ts), as on DuckDB.
  array_agg(call) {
    checkArity(call, 1, 1);
    return `svc_fn.array_agg_json(${call.args[0]})`;
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

export const rewrites: Record<string, Rewrite> = { ...COMMON_REWRITES, ...timeFunctions, ...otherFunctions };
