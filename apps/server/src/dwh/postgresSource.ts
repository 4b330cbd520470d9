import { createHash } from 'node:crypto';
import { SSL_MODES, type SslMode, type TargetType } from '@svc/contracts';
import type pg from 'pg';
import type { BulkLoadSource, SourceColumn, SourceRequest, SourceStream } from '../bulk-loads';
import { SourceError } from '../bulk-loads';
import type { AppDeps } from '../platform/context';
import type { ApiError } from '../platform/errors';
import { connectionSpec, requireAuthentication } from './authentications';
import {
  type ConnectionSpec,
  type ConnectOptions,
  connect,
  describeFailure,
  quoteIdent,
  WarehouseError,
} from './connection';
import { canBeIncremental, convertValue, mapColumn, selectExpression, timeExpression } from './typeMap';
import { describeTable } from './warehouse';

/**
 * The `postgresql` bulk load source. One REPEATABLE READ snapshot per run; rows stream through a
 * server-side cursor, `fetch_rows` at a time. Incremental runs read `column >= last value` and skip the
 * boundary rows already loaded, known by a digest of their primary key (or of the whole row when the
 * table has none) kept in `config_diff.in.boundary_digests`: rows that share the last value but arrived
 * later are loaded, and none is loaded twice.
 */

interface IncrementalState {
  last_record?: unknown[];
  incremental_column?: string;
  boundary_digests?: Record<string, number>;
  /** More rows than BOUNDARY_CAP shared the last value: the next run reads strictly past it. */
  boundary_overflow?: boolean;
}

/**
 * At most this many rows at the last cursor value are remembered. Past it the state keeps no digests and
 * the next run reads `column > last value`: nothing is doubled, but rows that arrive later with exactly
 * that value are not loaded (README: pick a finer incremental column).
 */
const BOUNDARY_CAP = 10_000;

function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v === '') throw new SourceError(`The source config has no "${what}".`);
  return v;
}

export async function resolveSpec(
  deps: AppDeps,
  accountId: number,
  input: Record<string, unknown>,
): Promise<ConnectionSpec> {
  if (input.svc_authentication_id !== undefined) {
    try {
      const spec = connectionSpec(deps, await requireAuthentication(deps, accountId, input.svc_authentication_id));
      // The integration may read another database of the same server (basic_configs.database).
      return typeof input.database === 'string' && input.database !== '' ? { ...spec, database: input.database } : spec;
    } catch (err) {
      if ((err as ApiError).status === 404) {
        throw new SourceError(`The authentication ${String(input.svc_authentication_id)} of this source was deleted.`);
      }
      throw err;
    }
  }
  return {
    host: str(input.host, 'host'),
    port: Number(input.port ?? 5432),
    database: str(input.database, 'database'),
    user: str(input.user, 'user'),
    password: typeof input.password === 'string' ? input.password : '',
    ssl_mode: sslMode(input),
  };
}

/**
 * The TLS mode of a typed-in source: `ssl_mode` when given, else the reference's boolean `ssl`
 * (Embulk's input-postgresql: `ssl: false` connects without TLS, also sent as the text "false"; `ssl: true`
 * requires it), else prefer, libpq's default (TLS when the server offers it).
 */
function sslMode(input: Record<string, unknown>): ConnectionSpec['ssl_mode'] {
  const mode = input.ssl_mode;
  if (typeof mode === 'string' && (SSL_MODES as readonly string[]).includes(mode)) return mode as SslMode;
  const ssl = input.ssl;
  if (ssl === false || (typeof ssl === 'string' && ssl.trim().toLowerCase() === 'false')) return 'disable';
  if (ssl === true || (typeof ssl === 'string' && ssl.trim().toLowerCase() === 'true')) return 'require';
  return 'prefer';
}

const digest = (values: unknown[]) => createHash('sha1').update(JSON.stringify(values)).digest('base64');

export function postgresSource(deps: AppDeps, options: ConnectOptions): BulkLoadSource {
  return {
    type: 'postgresql',
    async open(req: SourceRequest): Promise<SourceStream> {
      const { input } = req;
      const spec = await resolveSpec(deps, req.accountId, input);
      const fail = (err: unknown): Error =>
        err instanceof SourceError
          ? err
          : new SourceError(err instanceof WarehouseError ? err.message : describeFailure(err, spec));
      let client: pg.Client;
      try {
        client = await connect(spec, options);
      } catch (err) {
        throw fail(err);
      }
      try {
        return await prepare(client, req, fail);
      } catch (err) {
        await client.end().catch(() => {});
        throw fail(err);
      }
    },
  };
}

async function prepare(client: pg.Client, req: SourceRequest, fail: (e: unknown) => Error): Promise<SourceStream> {
  const { input } = req;
  const schema = str(input.schema ?? 'public', 'schema');
  const table = str(input.table, 'table');
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const info = await describeTable(client, schema, table);
  const byName = new Map(info.map((c) => [c.name, c]));
  const wanted = Array.isArray(input.columns)
    ? (input.columns as { name: string; type: TargetType }[])
    : info.flatMap((c) => {
        const m = mapColumn(c);
        return m.type ? [{ name: c.name, type: m.type }] : [];
      });
  const columns: SourceColumn[] = [];
  const exprs: string[] = [];
  for (const w of wanted) {
    const c = byName.get(w.name);
    if (!c) throw new SourceError(`The source column "${w.name}" of "${schema}.${table}" no longer exists.`);
    const expr = selectExpression(c, w.type);
    if (!expr) throw new SourceError(`The source column "${w.name}" (${c.source_type}) cannot be loaded as ${w.type}.`);
    columns.push({ name: w.name, type: w.type });
    exprs.push(expr);
  }
  if (req.timeColumn) {
    const c = byName.get(req.timeColumn);
    const expr = c ? timeExpression(c) : null;
    if (!expr) {
      throw new SourceError(
        `The time column "${req.timeColumn}" must be a timestamp, date or whole-number column of "${schema}.${table}".`,
      );
    }
    exprs.push(expr);
  }
  const incColumn = input.incremental === true ? (input.incremental_columns as string[] | undefined)?.[0] : undefined;
  if (input.incremental === true && !incColumn) {
    throw new SourceError('An incremental load needs "incremental_columns" with one column.');
  }
  const state = (req.state ?? {}) as IncrementalState;
  let last: string | null = null;
  let boundary = new Map<string, number>();
  let newMax: string | null = null;
  const params: unknown[] = [];
  let where = '';
  let keyCount = 0;
  if (incColumn) {
    const c = byName.get(incColumn);
    if (!c || !canBeIncremental(c)) {
      throw new SourceError(
        `The incremental column "${incColumn}" must be a number, date or timestamp column of "${schema}.${table}".`,
      );
    }
    if (state.incremental_column === incColumn && typeof state.last_record?.[0] === 'string') {
      last = state.last_record[0];
      boundary = new Map(Object.entries(state.boundary_digests ?? {}));
      where = ` WHERE ${quoteIdent(incColumn)} ${state.boundary_overflow ? '>' : '>='} $1`;
      params.push(last);
    }
    const keys = info.filter((k) => k.primary_key).map((k) => k.name);
    const keyColumns = keys.length > 0 ? keys : info.filter((k) => mapColumn(k).type !== null).map((k) => k.name);
    exprs.push(`${quoteIdent(incColumn)}::text`);
    for (const k of keyColumns) exprs.push(`${quoteIdent(k)}::text`);
    keyCount = keyColumns.length;
    const max = await client.query({
      text: `SELECT max(${quoteIdent(incColumn)})::text FROM ${quoteIdent(schema)}.${quoteIdent(table)}${where}`,
      values: params,
      rowMode: 'array',
    });
    newMax = (max.rows[0]?.[0] as string | null) ?? null;
  }
  const from = `${quoteIdent(schema)}.${quoteIdent(table)}`;
  // Merge keeps the last row of a key: in cursor order that is the newest (NULLs, read only once, first).
  const order = incColumn && req.orderByIncremental ? ` ORDER BY ${quoteIdent(incColumn)} ASC NULLS FIRST` : '';
  await client.query({
    text: `DECLARE svc_rows NO SCROLL CURSOR FOR SELECT ${exprs.join(', ')} FROM ${from}${where}${order}`,
    values: params,
  });
  const fetchRows = Math.min(Math.max(Number(input.fetch_rows) || 5000, 100), 50_000);
  const width = columns.length + (req.timeColumn ? 1 : 0);
  const nextBoundary = new Map<string, number>();
  let boundaryRows = 0;
  let done = false;

  return {
    columns,
    async *batches() {
      try {
        for (;;) {
          if (req.signal.aborted) throw req.signal.reason;
          const r = await client.query({ text: `FETCH ${fetchRows} FROM svc_rows`, rowMode: 'array' });
          if (r.rows.length === 0) break;
          const out: unknown[][] = [];
          for (const raw of r.rows as (string | null)[][]) {
            if (incColumn) {
              const inc = raw[width] ?? null;
              const d = digest(raw.slice(width + 1, width + 1 + keyCount));
              if (inc !== null && inc === newMax && ++boundaryRows <= BOUNDARY_CAP) {
                nextBoundary.set(d, (nextBoundary.get(d) ?? 0) + 1);
              }
              if (last !== null && inc === last) {
                const seen = boundary.get(d) ?? 0;
                if (seen > 0) {
                  boundary.set(d, seen - 1);
                  continue;
                }
              }
            }
            const row: unknown[] = new Array(width);
            for (let i = 0; i < columns.length; i++)
              row[i] = convertValue(raw[i] ?? null, (columns[i] as SourceColumn).type);
            if (req.timeColumn) row[columns.length] = raw[columns.length] === null ? null : Number(raw[columns.length]);
            out.push(row);
          }
          yield out;
        }
        done = true;
      } catch (err) {
        throw fail(err);
      }
    },
    nextState() {
      if (!done) throw new Error('The source was not read to the end.');
      if (!incColumn) return {};
      if (newMax === null) return { ...state };
      // Only rows at the new last value are remembered, and only up to the cap.
      if (boundaryRows > BOUNDARY_CAP) {
        return { incremental_column: incColumn, last_record: [newMax], boundary_overflow: true };
      }
      return {
        incremental_column: incColumn,
        last_record: [newMax],
        boundary_digests: Object.fromEntries(nextBoundary),
      };
    },
    async close() {
      await client.query('ROLLBACK').catch(() => {});
      await client.end().catch(() => {});
    },
  };
}
