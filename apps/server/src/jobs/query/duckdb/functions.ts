import {
  ANY,
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBBlobValue,
  type DuckDBConnection,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBScalarFunction,
  DuckDBStructValue,
  type DuckDBType,
  type DuckDBValue,
  LIST,
  listValue,
  VARCHAR,
} from '@duckdb/node-api';
import { prestoCast, prestoTryCast } from '../casts';
import { jsonPathSteps, scalars, unnestRows, walkJsonPath } from '../sqlFunctions';
import { arity, timeFunctions } from '../timeFunctions';

/**
 * The Presto and TD functions that have no native DuckDB form, as scalar functions of the connection that call
 * the TypeScript of sqlFunctions.ts, timeFunctions.ts and casts.ts (written for the SQLite engine, gone since
 * decision 0053): one implementation of each rule. They are named `svc_<name>` so they never shadow a DuckDB
 * built-in; translate.ts rewrites calls to them. Values arrive as `plainValue` makes them (integers as numbers,
 * booleans as 1 and 0, nested values as JSON text). The hot paths
 * (TD_TIME_FORMAT with a plain pattern, TD_TIME_RANGE and TD_INTERVAL with literal bounds) never come here:
 * translate.ts writes them as native SQL.
 */

type Fn = (...args: unknown[]) => unknown;

/**
 * A value of DuckDB's as plain JavaScript, the form the functions written in TypeScript take (booleans as 1 and 0,
 * nested values as JSON text).
 */
export function plainValue(v: DuckDBValue): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof DuckDBDecimalValue) return v.toDouble();
  if (v instanceof DuckDBBlobValue) return Buffer.from(v.bytes);
  if (v instanceof DuckDBListValue || v instanceof DuckDBStructValue || v instanceof DuckDBMapValue) {
    return JSON.stringify(jsonOf(v));
  }
  return String(v);
}

/**
 * The functions that see a condition as a boolean rather than 1 or 0: a cast to JSON writes it as `true` or
 * `false`, as Presto does.
 */
const KEEPS_BOOLEANS: ReadonlySet<string> = new Set(['cast_json']);

const plainKeepingBoolean = (v: DuckDBValue): unknown => (typeof v === 'boolean' ? v : plainValue(v));

/** A nested DuckDB value as plain JSON (lists as arrays, structs and maps as objects). */
export function jsonOf(v: DuckDBValue): unknown {
  if (v instanceof DuckDBListValue) return v.items.map(jsonOf);
  if (v instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(v.entries).map(([k, item]) => [k, jsonOf(item)]));
  }
  if (v instanceof DuckDBMapValue) return Object.fromEntries(v.entries.map((e) => [String(e.key), jsonOf(e.value)]));
  const plain = plainValue(v);
  if (typeof plain === 'bigint') return Number(plain);
  return plain instanceof Buffer ? null : plain;
}

type Out = 'varchar' | 'bigint' | 'double' | 'boolean' | 'list';

const TYPES: Record<Out, DuckDBType> = {
  varchar: VARCHAR,
  bigint: BIGINT,
  double: DOUBLE,
  boolean: BOOLEAN,
  list: LIST(VARCHAR),
};

function output(v: unknown, type: Out): DuckDBValue {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'varchar':
      return typeof v === 'string' ? v : String(v);
    case 'bigint':
      return typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
    case 'double':
      return Number(v);
    case 'boolean':
      return v === true || (v !== false && Number(v) !== 0);
    case 'list':
      return listValue((v as unknown[]).map((item) => (item === null ? null : String(item))));
  }
}

/** `SELECT unnest(svc_unnest_keys(x)), unnest(svc_unnest_values(x))`: UNNEST over JSON text (translate.ts). */
const unnestPart =
  (part: 0 | 1): Fn =>
  (input) =>
    [...unnestRows(input)].map((row) => row[part]);

/** The SQLite engine's json_extract: a scalar as itself, an object or array as JSON text. */
function jsonExtract(...args: unknown[]): unknown {
  arity('json_extract', args, 2, 2);
  const [doc, path] = args;
  if (doc === null || path === null || typeof doc !== 'string') return null;
  jsonPathSteps(String(path));
  let parsed: unknown;
  try {
    parsed = JSON.parse(doc);
  } catch {
    return null;
  }
  const value = walkJsonPath(parsed, String(path));
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/** Each function's result type as DuckDB must know it before the call. */
const RESULTS: Record<string, Out> = {
  td_time_range: 'boolean',
  td_interval: 'boolean',
  td_time_format: 'varchar',
  td_time_parse: 'bigint',
  td_time_add: 'bigint',
  td_date_trunc: 'bigint',
  from_unixtime: 'varchar',
  to_unixtime: 'double',
  date_format: 'varchar',
  format_datetime: 'varchar',
  date_parse: 'varchar',
  from_iso8601_timestamp: 'varchar',
  to_iso8601: 'varchar',
  date_trunc: 'varchar',
  year: 'bigint',
  month: 'bigint',
  day: 'bigint',
  hour: 'bigint',
  minute: 'bigint',
  second: 'bigint',
  day_of_week: 'bigint',
  regexp_like: 'boolean',
  regexp_extract: 'varchar',
  regexp_replace: 'varchar',
  split_part: 'varchar',
  strpos: 'bigint',
  json_extract_scalar: 'varchar',
  json_extract: 'varchar',
  element_at: 'varchar',
  cardinality: 'bigint',
  contains: 'boolean',
  url_extract_host: 'varchar',
  url_extract_path: 'varchar',
  url_extract_parameter: 'varchar',
  cast_bigint: 'bigint',
  cast_double: 'double',
  cast_boolean: 'boolean',
  cast_timestamp: 'varchar',
  cast_date: 'varchar',
  cast_json: 'varchar',
  unnest_keys: 'list',
  unnest_values: 'list',
};

/** The functions whose value depends on the job's "now" take it as their last argument. */
const NOW_TAKING = new Set(['td_interval']);

const castFunction =
  (kind: string): Fn =>
  (value, tryCast) =>
    tryCast ? prestoTryCast(value, kind) : prestoCast(value, kind);

function implementations(): Record<string, Fn> {
  const time = timeFunctions(0);
  const byNow = new Map<number, Record<string, Fn>>();
  const withNow =
    (name: string): Fn =>
    (...args) => {
      const now = Number(args.pop());
      let fns = byNow.get(now);
      if (!fns) {
        if (byNow.size > 100) byNow.clear();
        fns = timeFunctions(now);
        byNow.set(now, fns);
      }
      return (fns[name] as Fn)(...args);
    };
  const out: Record<string, Fn> = {};
  for (const name of Object.keys(RESULTS)) {
    const fn = NOW_TAKING.has(name) ? withNow(name) : (time[name] ?? scalars[name]);
    if (fn) out[name] = fn;
  }
  for (const kind of ['bigint', 'double', 'boolean', 'timestamp', 'date', 'json']) {
    out[`cast_${kind}`] = castFunction(kind);
  }
  out.json_extract = jsonExtract;
  out.unnest_keys = unnestPart(0);
  out.unnest_values = unnestPart(1);
  return out;
}

/** The names translate.ts may call as `svc_<name>`. */
export const UDF_NAMES: ReadonlySet<string> = new Set(Object.keys(RESULTS));

const registered = new WeakSet<DuckDBConnection>();

/** Registers the functions on a connection, once. */
export function registerDuckFunctions(connection: DuckDBConnection): void {
  if (registered.has(connection)) return;
  for (const [name, fn] of Object.entries(implementations())) {
    const type = RESULTS[name] as Out;
    connection.registerScalarFunction(
      DuckDBScalarFunction.create({
        name: `svc_${name}`,
        returnType: TYPES[type],
        varArgsType: ANY,
        specialHandling: true,
        mainFunction: (info, input, result) => {
          const columns = Array.from({ length: input.columnCount }, (_, k) => input.getColumnVector(k));
          const plain = KEEPS_BOOLEANS.has(name) ? plainKeepingBoolean : plainValue;
          try {
            for (let row = 0; row < input.rowCount; row++) {
              const args = columns.map((column) => plain(column.getItem(row)));
              result.setItem(row, output(fn(...args), type));
            }
            result.flush();
          } catch (e) {
            info.setError((e as Error).message);
          }
        },
      }),
    );
  }
  registered.add(connection);
}
