import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../testing/harness';
import { responseErrors } from '../testing/oasContract';
import { addAuthentication, dwhHarness, type Json, ok, runAndWait } from './testing/fixture';
import { seedWarehouse, startTestPostgres, type TestPostgres, warehouseDatabase } from './testing/postgres';

/**
 * `/v1` answers checked against the public description of the sync API (dwh-integration.openapi.yml).
 * Where it differs on purpose, the test says why and checks what it can:
 * - `basic_configs` and each advanced `config` are `oneOf` snowflake | databricks there; ours describe a
 *   PostgreSQL warehouse, so they are checked for the shared shape (type, tables, target table) only.
 * - `DwhIntegration` keeps its properties inside `allOf` beside `additionalProperties: false`, which no object
 *   with properties can satisfy; the test checks instead that we answer only property names it documents.
 * - `POST /v1/dwh/` answers `{dwh_id}` as the service contract says, where the description shows the record.
 */
const INTEGRATION_FIELDS = [
  'id',
  'name',
  'user_id',
  'account_id',
  'workflow_project_id',
  'workflow_project_name',
  'dwh_config_id',
  'schedule_type',
  'schedule_option',
  'timezone',
  'created_at',
  'updated_at',
];
const unsatisfiable = (e: string) => e.includes('must NOT have additional properties');
const warehouseSpecific = (e: string) => /^\/(basic_configs|advanced_configs\/\d+\/config)( |\/)/.test(e);

describe('data-warehouse sync API contract', () => {
  const DB = warehouseDatabase('warehouse_contract');
  let server: TestPostgres;
  let h: Harness;
  let dwhId: number;
  let guessed: Json;

  beforeAll(async () => {
    server = startTestPostgres();
    const creds = await seedWarehouse(server, DB);
    h = await dwhHarness();
    const authId = await addAuthentication(h, server, DB, creds);
    guessed = await ok(
      h.call('POST', '/v1/guess', { json: { svc_authentication_id: authId, schema: 'public', tables: ['orders'] } }),
    );
    await ok(h.call('POST', '/v3/database/create/dwh_contract'));
    const created = await ok(
      h.call('POST', '/v1/dwh/', {
        json: {
          name: 'contract sync',
          schedule_type: 'none',
          timezone: 'UTC',
          basic_configs: guessed.basic_configs,
          advanced_configs: guessed.advanced_configs,
          output_config: { database: 'dwh_contract' },
        },
      }),
    );
    expect(Object.keys(created)).toEqual(['dwh_id']);
    dwhId = created.dwh_id as number;
    await runAndWait(h, dwhId);
  }, 180_000);
  afterAll(() => {
    h?.close();
    server?.stop();
  });

  it('answers guess and configs as described, but for the warehouse-specific parts', async () => {
    const configs = await ok(h.call('GET', `/v1/dwh/${dwhId}/configs`));
    for (const [documented, method, body] of [
      ['/v1/guess', 'post', guessed],
      ['/v1/dwh/{dwh_id}/configs', 'get', configs],
    ] as const) {
      expect(responseErrors(method, documented, body, 'dwh').filter((e) => !warehouseSpecific(e))).toEqual([]);
      const basic = body.basic_configs as Json;
      expect(basic).toMatchObject({ type: 'postgresql', tables: ['orders'] });
      for (const table of body.advanced_configs as Json[]) {
        expect(table).toMatchObject({ target_table: expect.any(String), config: { type: 'postgresql' } });
      }
    }
  });

  it('answers integrations with the documented fields and types', async () => {
    const list = await ok(h.call('GET', '/v1/dwh/'));
    const one = await ok(h.call('GET', `/v1/dwh/${dwhId}`));
    expect(responseErrors('get', '/v1/dwh/', list, 'dwh').filter((e) => !unsatisfiable(e))).toEqual([]);
    expect(responseErrors('get', '/v1/dwh/{dwh_id}', one, 'dwh').filter((e) => !unsatisfiable(e))).toEqual([]);
    for (const record of [...(list.items as Json[]), one]) {
      expect(Object.keys(record).filter((k) => !INTEGRATION_FIELDS.includes(k))).toEqual([]);
    }
  });

  it.each([
    ['/v1/dwh/{dwh_id}/bulkload_sessions', (id: number) => `/v1/dwh/${id}/bulkload_sessions`],
    ['/v1/dwh/{dwh_id}/session_attempts', (id: number) => `/v1/dwh/${id}/session_attempts`],
  ] as const)('answers GET %s as described', async (documented, path) => {
    const body = await ok(h.call('GET', path(dwhId)));
    expect(responseErrors('get', documented, body, 'dwh')).toEqual([]);
  });

  it('answers errors in the contract’s one body, a 404 with exactly its five fields', async () => {
    const cases: Array<[Promise<Response>, number]> = [
      [h.call('GET', '/v1/dwh/999999'), 404],
      [h.call('POST', '/v1/guess', { json: { svc_authentication_id: 'x' } }), 400],
      [h.call('GET', '/v1/dwh/', { key: h.admin.writeOnlyKey }), 403],
      [h.call('GET', '/v1/dwh/', { key: null }), 401],
      [h.call('GET', '/v1/no_such_route'), 404],
    ];
    for (const [pending, status] of cases) {
      const res = await pending;
      const body = (await res.json()) as Json;
      expect(res.status).toBe(status);
      expect(body).toMatchObject({
        error: expect.any(String),
        message: expect.any(String),
        text: body.message,
        severity: 'error',
        status_code: status,
      });
      if (status === 404)
        expect(Object.keys(body).sort()).toEqual(['error', 'message', 'severity', 'status_code', 'text']);
    }
  });
});
