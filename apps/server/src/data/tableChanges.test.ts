import { tablesSwapped } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../jobs/testing/jobs';
import { work } from '../platform/work';
import { createHarness, type Harness } from '../testing/harness';
import { type DatabaseRow, requireDatabase, requireTable } from './catalog';
import { dataPlane, dataTaskOptions } from './dataPlane';
import { holdingLanes } from './laneHold';
import { packBatch } from './recordPack';
import { moveTable } from './tableChanges';
import { appendRows, prepareRecord } from './tableStore';

/** Swap, rename (create, swap, delete), update and change_database, on the real app and either backend. */

let h: Harness;
let web: DatabaseRow;

beforeEach(async () => {
  h = await createHarness();
  expect((await h.call('POST', '/v3/database/create/web')).status).toBe(200);
  web = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'web');
  await appendRows(
    h.deps,
    web,
    'pageviews',
    [
      { time: 10, path: '/a' },
      { time: 20, path: '/b' },
    ],
    {
      createTable: true,
    },
  );
  await appendRows(h.deps, web, 'clicks', [{ time: 30, button: 'buy', n: 1 }], { createTable: true });
}, 30_000);
afterEach(async () => {
  await h.close();
});

const show = async (db: string, table: string) => {
  const res = await h.call('GET', `/v3/table/show/${db}/${table}`);
  expect(res.status, `${db}.${table}`).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};
const tail = async (db: string, table: string) =>
  (await (await h.call('GET', `/v3/table/tail/${db}/${table}?count=10`)).text()).trim().split('\n');
const names = async (db: string) =>
  ((await (await h.call('GET', `/v3/table/list/${db}`)).json()) as { tables: { name: string }[] }).tables.map(
    (t) => t.name,
  );
const message = async (res: Response) => ((await res.json()) as { message: string }).message;

describe('POST /v3/table/swap/:db/:a/:b', () => {
  it('exchanges rows, schema, figures and settings between the two names', async () => {
    await h.call('POST', '/v3/table/update/web/clicks', { form: { expire_days: '7' } });
    const before = { pageviews: await show('web', 'pageviews'), clicks: await show('web', 'clicks') };
    const res = await h.call('POST', '/v3/table/swap/web/pageviews/clicks');
    expect(res.status).toBe(200);
    expect(tablesSwapped.parse(await res.json())).toEqual({ database: 'web', table1: 'pageviews', table2: 'clicks' });
    const after = { pageviews: await show('web', 'pageviews'), clicks: await show('web', 'clicks') };
    for (const field of ['id', 'schema', 'count', 'expire_days', 'last_log_timestamp']) {
      expect(after.pageviews[field], field).toEqual(before.clicks[field]);
      expect(after.clicks[field], field).toEqual(before.pageviews[field]);
    }
    expect(await tail('web', 'pageviews')).toEqual(['{"time":30,"button":"buy","n":1}']);
    expect(await tail('web', 'clicks')).toEqual(['{"time":20,"path":"/b"}', '{"time":10,"path":"/a"}']);
    // Writes by name land in the table that now has the name, and its figures follow.
    await appendRows(h.deps, web, 'pageviews', [{ time: 40, button: 'back' }]);
    expect((await show('web', 'pageviews')).count).toBe(2);
  });

  it('swaps back and forth, and the old names stay usable for new tables', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await h.call('POST', '/v3/table/swap/web/pageviews/clicks')).status).toBe(200);
    }
    expect(await tail('web', 'clicks')).toEqual(['{"time":20,"path":"/b"}', '{"time":10,"path":"/a"}']);
    expect((await h.call('POST', '/v3/table/delete/web/pageviews')).status).toBe(200);
    expect((await h.call('POST', '/v3/table/create/web/pageviews/log')).status).toBe(200);
    await appendRows(h.deps, web, 'pageviews', [{ time: 50, fresh: true }]);
    expect(await tail('web', 'pageviews')).toEqual(['{"time":50,"fresh":true}']);
  });

  it('is what td table:rename does: create the new name, swap, delete the old name; nothing stray is left', async () => {
    expect((await h.call('POST', '/v3/table/create/web/visits/log', { form: {} })).status).toBe(200);
    expect((await h.call('POST', '/v3/table/swap/web/pageviews/visits')).status).toBe(200);
    expect((await h.call('POST', '/v3/table/delete/web/pageviews')).status).toBe(200);
    expect(await names('web')).toEqual(['clicks', 'visits']);
    expect(await tail('web', 'visits')).toEqual(['{"time":20,"path":"/b"}', '{"time":10,"path":"/a"}']);
    expect((await dataPlane(h.deps).figures(web)).map((m) => m.name)).toEqual(['clicks', 'visits']);
    const { id, status } = await run(h, 'web', 'SELECT count(*) AS n FROM visits');
    expect(status).toBe('success');
    const rows = await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text();
    expect(rows).toBe('[2]\n');
  });

  it('refuses one table twice (400), a missing table (404) and a write-only key (403)', async () => {
    const same = await h.call('POST', '/v3/table/swap/web/clicks/clicks');
    expect(same.status).toBe(400);
    expect(await message(same)).toBe('Name two different tables to swap.');
    expect((await h.call('POST', '/v3/table/swap/web/clicks/nothing')).status).toBe(404);
    expect((await h.call('POST', '/v3/table/swap/nowhere/a_t/b_t')).status).toBe(404);
    expect((await h.call('POST', '/v3/table/swap/web/clicks/pageviews', { key: h.admin.writeOnlyKey })).status).toBe(
      403,
    );
    const other = await h.newAccount('Other');
    expect((await h.call('POST', '/v3/table/swap/web/clicks/pageviews', { key: other.masterKey })).status).toBe(404);
    expect(await tail('web', 'clicks')).toEqual(['{"time":30,"button":"buy","n":1}']);
  });
});

describe('POST /v3/table/update/:db/:table', () => {
  it('stores expire_days and include_v, answered by table show and list; 0 days means none', async () => {
    const res = await h.call('POST', '/v3/table/update/web/clicks', {
      form: { expire_days: '30', include_v: 'false' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web', table: 'clicks', type: 'log' });
    expect(await show('web', 'clicks')).toMatchObject({ expire_days: 30, include_v: false });
    const list = (await (await h.call('GET', '/v3/table/list/web')).json()) as { tables: Record<string, unknown>[] };
    expect(list.tables.find((t) => t.name === 'clicks')).toMatchObject({ expire_days: 30, include_v: false });
    await h.call('POST', '/v3/table/update/web/clicks', { json: { expire_days: 0 } });
    expect(await show('web', 'clicks')).toMatchObject({ expire_days: null, include_v: false });
    await h.call('POST', '/v3/table/update/web/clicks', { json: { include_v: true, detect_schema: true } });
    expect(await show('web', 'clicks')).toMatchObject({ expire_days: null, include_v: true });
  });

  it('refuses bad values with 400 naming the field, renames and schemas with 422 naming the route', async () => {
    for (const [body, field] of [
      [{ expire_days: '-1' }, '"expire_days"'],
      [{ expire_days: 'soon' }, '"expire_days"'],
      [{ include_v: 'maybe' }, '"include_v"'],
    ] as const) {
      const res = await h.call('POST', '/v3/table/update/web/clicks', { json: body });
      expect(res.status).toBe(400);
      expect(await message(res)).toContain(field);
    }
    const empty = await h.call('POST', '/v3/table/update/web/clicks');
    expect(empty.status).toBe(400);
    expect(await message(empty)).toContain('"expire_days"');
    const rename = await h.call('POST', '/v3/table/update/web/clicks', { form: { name: 'taps' } });
    expect(rename.status).toBe(422);
    expect(await message(rename)).toContain('/v3/table/swap');
    const schema = await h.call('POST', '/v3/table/update/web/clicks', { form: { schema: '[]' } });
    expect(schema.status).toBe(422);
    expect(await message(schema)).toContain('update-schema');
    expect((await h.call('POST', '/v3/table/update/web/nothing', { form: { expire_days: '1' } })).status).toBe(404);
    expect(
      (await h.call('POST', '/v3/table/update/web/clicks', { form: { expire_days: '1' }, key: h.admin.writeOnlyKey }))
        .status,
    ).toBe(403);
  });
});

describe('POST /v3/table/change_database/:db/:table', () => {
  it('moves the table with its rows, schema and figures; the old database no longer has it', async () => {
    expect((await h.call('POST', '/v3/database/create/archive')).status).toBe(200);
    const before = await show('web', 'pageviews');
    const res = await h.call('POST', '/v3/table/change_database/web/pageviews', {
      form: { dest_database_name: 'archive' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'archive', table: 'pageviews', type: 'log' });
    expect(await names('web')).toEqual(['clicks']);
    expect(await names('archive')).toEqual(['pageviews']);
    const moved = await show('archive', 'pageviews');
    for (const field of ['id', 'schema', 'count', 'estimated_storage_size', 'last_log_timestamp']) {
      expect(moved[field], field).toEqual(before[field]);
    }
    expect(await tail('archive', 'pageviews')).toEqual(['{"time":20,"path":"/b"}', '{"time":10,"path":"/a"}']);
    expect((await dataPlane(h.deps).figures(web)).map((m) => m.name)).toEqual(['clicks']);
    const archive = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'archive');
    await appendRows(h.deps, archive, 'pageviews', [{ time: 30, path: '/c' }]);
    const { id, status } = await run(h, 'archive', 'SELECT count(*) AS n FROM pageviews');
    expect(status).toBe('success');
    expect(await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text()).toBe('[3]\n');
    // The name is free again in the old database.
    await appendRows(h.deps, web, 'pageviews', [{ time: 1, other: 'x' }], { createTable: true });
    expect(await tail('web', 'pageviews')).toEqual(['{"time":1,"other":"x"}']);
  });

  it('runs a write queued before a move with the catalog as it is after it: the row lands where the name leads', async () => {
    expect((await h.call('POST', '/v3/database/create/archive')).status).toBe(200);
    const archive = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'archive');
    const table = await requireTable(h.deps.storage.db, h.admin.accountId, web.id, 'pageviews');
    let queued: Promise<unknown> = Promise.resolve();
    // The write is queued in web's lane while the catalog still has pageviews there; it runs once the move is done.
    await holdingLanes(h.deps, [web, archive], async () => {
      const batch = packBatch({
        table: 'pageviews',
        records: [prepareRecord({ time: 40, path: '/d' })],
        createTable: true,
      });
      queued = work(h.deps).run('ingest.write', { database: web, batches: [batch] }, dataTaskOptions(h.deps, web));
      await moveTable(h.deps, web, archive, table);
    });
    await queued;
    expect(await tail('archive', 'pageviews')).toEqual(['{"time":20,"path":"/b"}', '{"time":10,"path":"/a"}']);
    expect(await names('web')).toEqual(['clicks', 'pageviews']);
    expect(await tail('web', 'pageviews')).toEqual(['{"time":40,"path":"/d"}']);
    expect((await show('web', 'pageviews')).count).toBe(1);
  });

  it('hands the rows over between the owners of the two files, and a write racing the move is kept once', async () => {
    // The source's owner worker is kept busy while the destination is created, so another worker owns the
    // destination's file (on DuckDB each file is opened by its owner only, decision 0031).
    await holdingLanes(h.deps, [web], async () => {
      expect((await h.call('POST', '/v3/database/create/archive')).status).toBe(200);
    });
    const archive = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'archive');
    await appendRows(h.deps, archive, 'visits', [{ time: 5, who: 'x' }], { createTable: true });
    const [moved, raced] = await Promise.all([
      h.call('POST', '/v3/table/change_database/web/pageviews', { form: { dest_database_name: 'archive' } }),
      appendRows(h.deps, web, 'pageviews', [{ time: 40, path: '/d' }], { createTable: true }),
    ]);
    expect(moved.status).toBe(200);
    expect(raced.inserted).toBe(1);
    // The racing row landed before the move (and moved) or after it (in a new table of the old name).
    const there = await tail('archive', 'pageviews');
    const left = (await names('web')).includes('pageviews') ? await tail('web', 'pageviews') : [];
    expect([...there, ...left].sort()).toEqual([
      '{"time":10,"path":"/a"}',
      '{"time":20,"path":"/b"}',
      '{"time":40,"path":"/d"}',
    ]);
    expect(await tail('archive', 'visits')).toEqual(['{"time":5,"who":"x"}']);
    const { id, status } = await run(h, 'archive', 'SELECT count(*) AS n FROM pageviews');
    expect(status).toBe('success');
    expect(await (await h.call('GET', `/v3/job/result/${id}?format=json`)).text()).toBe(`[${there.length}]\n`);
  });

  it('refuses a taken name (409), an unknown destination (404), the same database and no destination (400)', async () => {
    expect((await h.call('POST', '/v3/database/create/archive')).status).toBe(200);
    expect((await h.call('POST', '/v3/table/create/archive/clicks/log')).status).toBe(200);
    const taken = await h.call('POST', '/v3/table/change_database/web/clicks', {
      json: { dest_database_name: 'archive' },
    });
    expect(taken.status).toBe(409);
    expect(await message(taken)).toContain('already has a table named "clicks"');
    const unknown = await h.call('POST', '/v3/table/change_database/web/clicks', {
      json: { dest_database_name: 'nowhere' },
    });
    expect(unknown.status).toBe(404);
    const same = await h.call('POST', '/v3/table/change_database/web/clicks', { json: { dest_database_name: 'web' } });
    expect(same.status).toBe(400);
    const none = await h.call('POST', '/v3/table/change_database/web/clicks');
    expect(none.status).toBe(400);
    expect(await message(none)).toContain('"dest_database_name"');
    const other = await h.newAccount('Other');
    await h.call('POST', '/v3/database/create/theirs', { key: other.masterKey });
    const foreign = await h.call('POST', '/v3/table/change_database/web/clicks', {
      json: { dest_database_name: 'theirs' },
    });
    expect(foreign.status).toBe(404);
    expect(await tail('web', 'clicks')).toEqual(['{"time":30,"button":"buy","n":1}']);
  });
});
