import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { dataPlane, requireDatabase } from '../../data';
import { createHarness, type Harness } from '../../testing/harness';
import { seedWarehouse, startTestPostgres, type TestPostgres, warehouseDatabase } from './postgres';

export type Json = Record<string, unknown>;

/** An app with the beta enabled for its first account and a target database `dwh_target`. */
export async function dwhHarness(dwh: { connectTimeoutMs?: number } = {}): Promise<Harness> {
  const h = await createHarness(
    { outbound: { allowPrivateAddresses: false, allowWarehouseLoopback: true } },
    { app: { dwh } },
  );
  const on = await h.call('PUT', '/v1/dwh/feature', { json: { enabled: true } });
  if (on.status !== 200) throw new Error(`enabling the feature answered ${on.status}`);
  await h.call('POST', '/v3/database/create/dwh_target');
  return h;
}

export async function ok(res: Response | Promise<Response>): Promise<Json> {
  const r = await res;
  const body = (await r.json()) as Json;
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status}: ${JSON.stringify(body)}`);
  return body;
}

export async function addAuthentication(
  h: Harness,
  pg: TestPostgres,
  database: string,
  creds: { user: string; password: string },
  name = 'warehouse',
): Promise<number> {
  const body = await ok(
    h.call('POST', '/v1/authentications', {
      json: {
        name,
        host: pg.host,
        port: pg.port,
        database,
        user: creds.user,
        password: creds.password,
        ssl_mode: 'disable',
      },
    }),
  );
  return body.id as number;
}

/**
 * Rows of a target table of `dwh_target` through the data plane (a SQLite file or a PostgreSQL schema),
 * ordered by the column `order`, or as stored (by time, then insertion) without it.
 */
export async function targetRows(h: Harness, table: string, order?: string): Promise<Json[]> {
  const database = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'dwh_target');
  const rows = (await dataPlane(h.deps).rows(database, table)) as Json[];
  if (!order) return rows;
  const key = (r: Json) => r[order] as number | string | null;
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === y) return 0;
    if (x === null) return -1;
    if (y === null) return 1;
    return x < y ? -1 : 1;
  });
}

/** Runs the integration and waits until every table's job has ended; returns the attempt. */
export async function runAndWait(h: Harness, dwhId: number): Promise<Json> {
  const run = await ok(h.call('PUT', `/v1/dwh/${dwhId}/run_workflow`));
  if (run.status !== 'running') throw new Error(`run_workflow answered status ${String(run.status)}`);
  const attempts = await ok(h.call('GET', `/v1/dwh/${dwhId}/session_attempts`));
  const attempt = (attempts.items as Json[])[0] as Json;
  for (const t of attempt.tables as Json[]) await h.app.services.jobs.whenSettled(t.job_id as number);
  const after = await ok(h.call('GET', `/v1/dwh/${dwhId}/session_attempts`));
  return (after.items as Json[])[0] as Json;
}

/** What a warehouse test file shares: its warehouse database and reader, and each test's app. */
export interface WarehouseSuite {
  database: string;
  server: TestPostgres;
  creds: { user: string; password: string };
  h: Harness;
}

/**
 * Registers a warehouse test file's hooks: the test PostgreSQL with a warehouse database of this pass
 * (seeded, then `seed` for the file's own tables), and a new app for every test (`harness`, else
 * `dwhHarness()`). The returned object is filled as the hooks run.
 */
export function warehouseSuite(
  name: string,
  opts: { seed?: () => Promise<void>; harness?: () => Promise<Harness> } = {},
): WarehouseSuite {
  const w = { database: warehouseDatabase(name) } as WarehouseSuite;
  beforeAll(async () => {
    w.server = startTestPostgres();
    w.creds = await seedWarehouse(w.server, w.database);
    await opts.seed?.();
  }, 120_000);
  afterAll(() => w.server?.stop());
  beforeEach(async () => {
    w.h = await (opts.harness ?? dwhHarness)();
  });
  afterEach(() => w.h.close());
  return w;
}
