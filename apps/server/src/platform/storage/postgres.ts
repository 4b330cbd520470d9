import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './controlTables/index';
import { StorageUnavailable } from './errors';
import { acceptCopy } from './pgCopy';
import { re2ToPostgres } from './postgresRegexp';
import type { BoundText, ColumnKind, SqlDialect, Storage } from './types';

const ARRAY_TYPE: Record<ColumnKind, string> = { integer: 'bigint[]', text: 'text[]' };

function insertValues(kinds: ReadonlyArray<ColumnKind>, rows: ReadonlyArray<ReadonlyArray<unknown>>): BoundText {
  const parameters = kinds.map((_, column) => rows.map((row) => row[column] ?? null));
  const arrays = kinds.map((kind, column) => `$${column + 1}::${ARRAY_TYPE[kind]}`);
  return { text: `SELECT * FROM unnest(${arrays.join(', ')})`, parameters };
}

/**
 * A name as a PostgreSQL identifier: names longer than PostgreSQL's 63 bytes (tables may have 255
 * characters, columns 128) become their first 50 characters and a hash, so they never collide when cut.
 */
export function pgIdentifier(name: string): string {
  if (name.length <= 63) return name;
  return `${name.slice(0, 50)}_${createHash('sha256').update(name).digest('hex').slice(0, 12)}`;
}

/** PostgreSQL's forms of what differs between the backends. */
export const postgresDialect: SqlDialect = {
  jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  jsonArrayElements: (column, alias) =>
    `jsonb_array_elements(${column}::jsonb) WITH ORDINALITY AS ${alias}(value, key)`,
  groupConcat: (expr, separator) => `string_agg((${expr})::text, '${separator.replace(/'/g, "''")}')`,
  syncIdentity: (table) =>
    `SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT MAX(id) FROM ${table}), 1))`,
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  ident: (name) => `"${pgIdentifier(name)}"`,
  position: (haystack, needle) => sql`strpos(${haystack}, ${needle})`,
  regexpMatch: (value, pattern) => sql`(CAST(${value} AS TEXT) ~ ${re2ToPostgres(pattern)})`,
  listValues: (values, type) =>
    sql`SELECT unnest(CAST(${values} AS ${sql.raw(type === 'text' ? 'TEXT' : 'BIGINT')}[]))`,
  binaryOrder: (expr) => `${expr} COLLATE "C"`,
  newestPerKey: ({ key, values, time, from, where }) =>
    `SELECT DISTINCT ON (1) ${key} AS k${values.map((v, i) => `, ${v} AS v${i}`).join('')}
     FROM ${from} WHERE ${where} ORDER BY 1, ${time} DESC`,
  insertValues,
};

/**
 * Result types as the SQLite backend gives them: BIGINT (ids, millisecond times, counts) and NUMERIC (sums)
 * as numbers rather than strings. Values are far below 2^53.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface PostgresStorage extends Storage {
  readonly backend: 'postgres';
  readonly pool: pg.Pool;
  /**
   * The tails of this node's queues of named locks (locks.ts), by name: the holders of a name on this node
   * queue here before taking its advisory lock, so waiting takes one pooled connection per name.
   */
  readonly lockQueues: Map<string, Promise<void>>;
}

/** Where the URL points, for messages: user, host, port and database, never the password. */
function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `postgres://${user}${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'postgres://(an address that is not a URL)';
  }
}

/**
 * One line a person can act on for a failed first connection, without the password: unreachable server,
 * refused credentials, missing database.
 */
function explainConnectFailure(url: string, err: unknown): string {
  const where = describePostgresUrl(url);
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === '28P01' || code === '28000')
    return `PostgreSQL at ${where} refused the user name or password in SVC_DATABASE_URL (${code}).`;
  if (code === '3D000') return `PostgreSQL at ${where}: the database does not exist. Create it first (createdb).`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH')
    return `PostgreSQL at ${where} cannot be reached (${code}). Start it, or fix SVC_DATABASE_URL.`;
  return `PostgreSQL at ${where} could not be used: ${message.replaceAll(url, where)}`;
}

/** Opens a pool on `url` and checks one connection, so a wrong address fails at start-up, clearly. */
export async function openPostgresStorage(url: string, options: { max?: number } = {}): Promise<PostgresStorage> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // A connection dropped while idle (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // The same for a connection in use: the statement running on it fails (and the caller answers 503); the
  // client's own error event must not become an uncaught exception.
  let setup: string | null = null;
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // Plane writes copy their rows on the transaction's client (pgCopy.ts).
    acceptCopy(client);
    // Runs before anything the client is asked next (a client runs its statements in order).
    if (setup) client.query(setup).catch(() => {});
  });
  try {
    const client = await pool.connect();
    // Values stored out of line (bulk import's kept files, long text) are compressed with lz4 where the server
    // has it: pglz, the default, took twice as long as writing them uncompressed; lz4 is faster still (less WAL).
    const lz4 = await client.query(
      `SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`,
    );
    if (lz4.rowCount) {
      setup = `SET default_toast_compression = 'lz4'`;
      await client.query(setup);
    }
    client.release();
  } catch (err) {
    await pool.end().catch(() => {});
    throw new StorageUnavailable(explainConnectFailure(url, err));
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    backend: 'postgres',
    db,
    dialect: postgresDialect,
    pool,
    lockQueues: new Map(),
    describe: describePostgresUrl(url),
    target: { backend: 'postgres', url },
    close: async () => {
      await db.destroy();
      // Kysely ends the pool only if it ran a query itself; a storage used only through the pool keeps it.
      if (!pool.ended) await pool.end();
    },
  };
}
