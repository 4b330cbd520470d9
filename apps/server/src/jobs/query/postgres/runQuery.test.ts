import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QueryTestDatabase, startQueryTestDatabase } from '../../testing/queryDatabase';
import { QueryFailed } from '../outcome';
import { QueryRefused } from '../tokens';
import { ensureReadRole, readRoleName } from './readRoles';
import { cancelPostgresQuery, type PostgresQueryTask, runPostgresQuery, runTranslatedQuery } from './runQuery';

let pg: QueryTestDatabase;
let web: string;
let other: string;
const JAN_1 = 1704067200;

const tableTypes = new Map([
  [
    'events',
    new Map([
      ['time', 'long'],
      ['name', 'string'],
      ['amount', 'double'],
      ['qty', 'long'],
      ['tags', 'array<string>'],
      ['props', 'map<string,long>'],
      ['paid', 'boolean'],
    ]),
  ],
]);

beforeAll(async () => {
  pg = await startQueryTestDatabase();
  web = `${pg.prefix}_web`;
  other = `${pg.prefix}_other`;
  // Customer tables as the PostgreSQL backend lays them out: typed columns, nested values as JSON text.
  await pg.pool.query(`
    CREATE SCHEMA "${web}";
    CREATE TABLE "${web}".events (time BIGINT NOT NULL, name TEXT, amount DOUBLE PRECISION, qty BIGINT, tags TEXT,
                                  props TEXT, paid BIGINT);
    CREATE INDEX ON "${web}".events (time);
    INSERT INTO "${web}".events VALUES
      (${JAN_1}, 'a', 1.5, 2, '["x","y"]', '{"k":1}', 1),
      (${JAN_1 + 3600}, 'b', 2, 9007199254740993, '["y"]', '{"k":2}', 0),
      (${JAN_1 + 86400}, 'c', NULL, NULL, NULL, NULL, NULL);
    CREATE SCHEMA "${other}";
    CREATE TABLE "${other}".secret (time BIGINT NOT NULL, s TEXT);
    INSERT INTO "${other}".secret VALUES (1, 'other customer');
    CREATE TABLE public.api_keys (id BIGINT, hmac TEXT);
    INSERT INTO public.api_keys VALUES (1, 'control data');`);
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

const task = (sql: string, more: Partial<PostgresQueryTask> = {}): PostgresQueryTask => ({
  pool: pg.pool,
  schema: web,
  database: 'web',
  sql,
  nowMs: Date.UTC(2024, 0, 1, 12),
  timeoutMs: 10_000,
  maxRows: 100,
  tableTypes,
  ...more,
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the query to fail');
}

/** Resolves once the backend `pid` fetches from the query's cursor (the cancel tests need a statement to cancel). */
async function running(pid: number): Promise<void> {
  for (;;) {
    const r = await pg.pool.query(
      "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE 'FETCH%'",
      [pid],
    );
    if (r.rowCount) return;
  }
}

describe('runPostgresQuery results', () => {
  it('returns typed rows: table columns keep their catalog types, nested values and booleans decoded', async () => {
    const result = await runPostgresQuery(
      task(
        "SELECT time, name, amount, qty, tags, props, paid FROM web.events WHERE TD_TIME_RANGE(time, '2024-01-01', '2024-01-02') ORDER BY time",
      ),
    );
    expect(result.schema).toEqual([
      ['time', 'bigint'],
      ['name', 'varchar'],
      ['amount', 'double'],
      ['qty', 'bigint'],
      ['tags', 'array(varchar)'],
      ['props', 'map(varchar, bigint)'],
      ['paid', 'boolean'],
    ]);
    expect(result.rows).toEqual([
      [JAN_1, 'a', 1.5, 2, ['x', 'y'], { k: 1 }, true],
      [JAN_1 + 3600, 'b', 2, 9007199254740993n, ['y'], { k: 2 }, false],
    ]);
  });

  it('gives computed columns the type of their values, booleans as 1 and 0', async () => {
    const result = await runPostgresQuery(
      task(
        "SELECT count(*) AS n, sum(amount) AS total, name = 'a' AS is_a, element_at(tags, 1) AS first_tag FROM events GROUP BY name, tags ORDER BY name",
      ),
    );
    expect(result.schema).toEqual([
      ['n', 'bigint'],
      ['total', 'double'],
      ['is_a', 'bigint'],
      ['first_tag', 'varchar'],
    ]);
    expect(result.rows).toEqual([
      [1, 1.5, 1, 'x'],
      [1, 2, 0, 'y'],
      [1, null, 0, null],
    ]);
  });

  it("casts a condition to JSON as Presto does, true or false (DuckDB's 1 or 0 is an EMBEDDED_GAPS row)", async () => {
    const result = await runPostgresQuery(
      task('SELECT CAST(amount > 1.6 AS json) AS j, TRY_CAST(NULL = 1 AS json) AS n FROM events ORDER BY time'),
    );
    expect(result.rows).toEqual([
      ['false', null],
      ['true', null],
      [null, null],
    ]);
  });

  it('runs typical report queries over a table', async () => {
    const daily = await runPostgresQuery(
      task(
        "SELECT TD_TIME_FORMAT(time, 'yyyy-MM-dd', 'JST') AS day, count(*) AS n, approx_distinct(name) AS names FROM events WHERE TD_TIME_RANGE(time, '2024-01-01', NULL, 'JST') GROUP BY 1 ORDER BY day",
      ),
    );
    expect(daily.rows).toEqual([
      ['2024-01-01', 2, 2],
      ['2024-01-02', 1, 1],
    ]);
    const ranked = await runPostgresQuery(
      task(
        "SELECT name, row_number() OVER (ORDER BY time DESC) AS r, json_extract(props, '$.k') AS k, CAST(json_extract_scalar(props, '$.k') AS bigint) + 1 AS k1, contains(tags, 'x') AS has_x FROM events WHERE TD_INTERVAL(time, '-1d/2024-01-02') ORDER BY r",
      ),
    );
    expect(ranked.rows).toEqual([
      ['b', 1, '2', 3, 0],
      ['a', 2, '1', 2, 1],
    ]);
  });

  it('hands rows to onRows batch by batch, in order, when asked', async () => {
    const batches: unknown[][][] = [];
    const result = await runPostgresQuery(
      task('SELECT name FROM events ORDER BY time', { batchRows: 2, onRows: (rows) => void batches.push(rows) }),
    );
    expect(batches).toEqual([[['a'], ['b']], [['c']]]);
    expect(result).toEqual({ schema: [['name', 'varchar']], rows: [], numRecords: 3 });
  });

  it('stops past maxRows with a message that says what to do', async () => {
    const e = await failure(runPostgresQuery(task('SELECT name FROM events', { maxRows: 2, batchRows: 1 })));
    expect(e).toBeInstanceOf(QueryFailed);
    expect(e.message).toBe('The result has more than 2 rows: add a LIMIT, a filter or an aggregate.');
  });

  it("reports PostgreSQL's message for SQL it cannot run, as the SQLite path reports SQLite's", async () => {
    const e = await failure(runPostgresQuery(task('SELECT * FROM nope')));
    expect(e.message).toMatch(/relation "nope" does not exist/);
  });
});

describe('the sandbox', () => {
  it('cannot read another customer schema or the control tables', async () => {
    for (const sql of [`SELECT * FROM "${other}".secret`, 'SELECT * FROM public.api_keys']) {
      const e = await failure(runPostgresQuery(task(sql)));
      expect(e).toBeInstanceOf(QueryFailed);
      expect(e.message).toMatch(/^Permission denied: a query reads only the tables of its own database \(permission/);
    }
  });

  it('refuses functions outside the dialect, which could change settings or run SQL text', async () => {
    for (const sql of [
      "SELECT set_config('role', current_user, true)",
      "SELECT query_to_xml('SELECT * FROM public.api_keys', true, true, '')",
      "SELECT pg_read_file('/etc/passwd')",
      "SELECT svc_fn.zone('JST')",
      'SELECT "set_config"(1)',
    ]) {
      const e = await failure(runPostgresQuery(task(sql)));
      expect(e, sql).toBeInstanceOf(QueryRefused);
      expect(e.message, sql).toMatch(/is not supported on this query engine|Qualified function names are not allowed/);
    }
  });

  it('cannot write: the transaction is read-only, also behind a WITH clause', async () => {
    // Past the text guard (which refuses UPDATE), the transaction itself refuses to lock rows for writing.
    const e = await failure(runTranslatedQuery(task(''), 'SELECT * FROM events FOR UPDATE'));
    expect(e.message).toMatch(/^Queries may only read data/);
    // (RETURNING is a column name in Presto, so the translator quotes it: the write has none.)
    const hidden = await failure(runPostgresQuery(task('WITH d AS (DELETE FROM events) SELECT 1 AS n')));
    expect(hidden.message).toMatch(/^Queries may only read data/);
    const { rows } = await pg.pool.query(`SELECT count(*)::int AS n FROM "${web}".events`);
    expect(rows[0].n).toBe(3);
  });

  it('reads tables created after the role, and grants nothing on other schemas', async () => {
    const client = await pg.pool.connect();
    const role = await ensureReadRole(client, web).finally(() => client.release());
    expect(role).toBe(readRoleName(web));
    await pg.pool.query(`CREATE TABLE "${web}".later (time BIGINT NOT NULL); INSERT INTO "${web}".later VALUES (5)`);
    const result = await runPostgresQuery(task('SELECT time FROM later'));
    expect(result.rows).toEqual([[5]]);
    const { rows } = await pg.pool.query(
      `SELECT has_schema_privilege($1, $2, 'USAGE') AS other_schema,
              has_table_privilege($1, 'public.api_keys', 'SELECT') AS control,
              has_table_privilege($1, $3, 'INSERT') AS insert`,
      [role, other, `"${web}".events`],
    );
    expect(rows[0]).toEqual({ other_schema: false, control: false, insert: false });
  });

  it('sets the role up again for a database dropped and made again', async () => {
    const again = `${pg.prefix}_again`;
    await pg.pool.query(`CREATE SCHEMA "${again}"; CREATE TABLE "${again}".t (time BIGINT NOT NULL)`);
    expect((await runPostgresQuery(task('SELECT count(*) AS n FROM t', { schema: again }))).rows).toEqual([[0]]);
    await pg.pool.query(`DROP SCHEMA "${again}" CASCADE; CREATE SCHEMA "${again}"`);
    await pg.pool.query(`CREATE TABLE "${again}".t (time BIGINT NOT NULL); INSERT INTO "${again}".t VALUES (1)`);
    expect((await runPostgresQuery(task('SELECT count(*) AS n FROM t', { schema: again }))).rows).toEqual([[1]]);
  });

  it('says what to fix when the query role cannot be set up', async () => {
    const e = await failure(runPostgresQuery(task('SELECT 1', { schema: `${pg.prefix}_missing` })));
    expect(e.message).toMatch(/^The query role svc_read_\w+ could not be set up .*schema .* does not exist/);
  });

  it('names roles within the 63-byte limit, distinctly', () => {
    const long = 'x'.repeat(80);
    expect(Buffer.byteLength(readRoleName(long))).toBeLessThanOrEqual(63);
    expect(readRoleName(long)).not.toBe(readRoleName(`${long}y`));
    expect(readRoleName('web')).toBe('svc_read_web');
  });
});

describe('time limit and cancel', () => {
  it('stops a query at the time limit, as the SQLite path words it', async () => {
    const started = performance.now();
    const e = await failure(runTranslatedQuery(task('', { timeoutMs: 1000 }), 'SELECT pg_sleep(10)'));
    expect(e).toBeInstanceOf(QueryFailed);
    expect(e.message).toBe('Stopped: time limit of 1 s exceeded.');
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('cancelPostgresQuery stops a running query, which then reads as killed', async () => {
    let pid = 0;
    let tag = '';
    const started = performance.now();
    const run = failure(
      runTranslatedQuery(
        task('', {
          onBackendPid: (p, t) => {
            pid = p;
            tag = t;
          },
        }),
        'SELECT pg_sleep(10)',
      ),
    );
    while (pid === 0) await new Promise((resolve) => setImmediate(resolve));
    await running(pid);
    // A tag that is not the running query's (a late kill of an earlier job) cancels nothing.
    expect(await cancelPostgresQuery(pg.pool, pid, 'svc_query_other')).toBe(false);
    expect(await cancelPostgresQuery(pg.pool, pid, tag)).toBe(true);
    const e = await run;
    expect(e).toBeInstanceOf(QueryFailed);
    expect(e.message).toBe('Killed on request.');
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('aborting the signal cancels the query and rejects with its reason, as a killed SQLite query does', async () => {
    const controller = new AbortController();
    let pid = 0;
    const run = failure(
      runTranslatedQuery(
        task('', {
          signal: controller.signal,
          onBackendPid: (p) => {
            pid = p;
          },
        }),
        'SELECT pg_sleep(10)',
      ),
    );
    while (pid === 0) await new Promise((resolve) => setImmediate(resolve));
    await running(pid);
    const reason = new Error('Killed on request.');
    controller.abort(reason);
    expect(await run).toBe(reason);
    // The connection went back to the pool clean: the next query runs.
    expect((await runPostgresQuery(task('SELECT 1 AS one'))).rows).toEqual([[1]]);
  });

  it('a kill whose first cancel lands between two statements still stops the query that follows', async () => {
    const controller = new AbortController();
    const reason = new Error('Killed on request.');
    let firstCancelDone: () => void = () => {};
    const firstCancel = new Promise<void>((resolve) => {
      firstCancelDone = resolve;
    });
    let cancels = 0;
    // The driver's pool, instrumented: the kill fires just before the first FETCH is sent, and that FETCH
    // waits until the kill's first cancel has reached the then idle backend (where it cancels nothing).
    const pool = new Proxy(pg.pool, {
      get(target, prop) {
        if (prop === 'query') {
          return async (...args: Parameters<typeof target.query>) => {
            const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
            if (String(args[0]).includes('pg_cancel_backend') && ++cancels === 1) firstCancelDone();
            return result;
          };
        }
        if (prop === 'connect') {
          return async () => {
            const client = await target.connect();
            let fetches = 0;
            return new Proxy(client, {
              get(c, key) {
                if (key !== 'query') return Reflect.get(c, key, c);
                return async (config: unknown, ...rest: unknown[]) => {
                  const text = typeof config === 'string' ? config : (config as { text: string }).text;
                  if (text.startsWith('FETCH') && ++fetches === 1) {
                    controller.abort(reason);
                    await firstCancel;
                  }
                  return (c.query as (...a: unknown[]) => Promise<unknown>)(config, ...rest);
                };
              },
            });
          };
        }
        return Reflect.get(target, prop, target);
      },
    });
    const started = performance.now();
    const run = failure(runTranslatedQuery(task('', { pool, signal: controller.signal }), 'SELECT pg_sleep(10)'));
    // An idle backend usually drops that first cancel: then only a repeated one stops the FETCH, which would
    // otherwise sleep its 10 s and end at the time limit instead.
    expect(await run).toBe(reason);
    expect(cancels).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(8000);
  });
});
