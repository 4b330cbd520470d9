import { gzipSync } from 'node:zlib';
import { encodePart, encodeRecords } from '@svc/bulk-format';
import { tableImported } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

/** PUT /v3/table/import and import_with_id: msgpack.gz bodies as td-client-*, fluent-plugin-td and the CLI send. */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  expect((await h.call('POST', '/v3/database/create/web')).status).toBe(200);
  expect((await h.call('POST', '/v3/table/create/web/events/log')).status).toBe(200);
}, 30_000);
afterEach(async () => {
  await h.close();
});

const put = (path: string, body: Uint8Array, opts: { key?: string; on?: Harness } = {}) =>
  (opts.on ?? h).call('PUT', path, {
    body: body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'application/octet-stream' },
    ...(opts.key ? { key: opts.key } : {}),
  });
const tail = async (table = 'events') =>
  (await (await h.call('GET', `/v3/table/tail/web/${table}?count=100`)).text()).trim().split('\n').filter(Boolean);
const count = async () =>
  ((await (await h.call('GET', '/v3/table/show/web/events')).json()) as { count: number }).count;
const message = async (res: Response) => ((await res.json()) as { message: string }).message;

describe('PUT /v3/table/import/:db/:table/msgpack.gz', () => {
  it('imports every record with the table rules and answers elapsed_time, database and table', async () => {
    const body = await encodePart([
      { time: 1_700_000_000, path: '/a', v: 'kept as _v', 'Page-Url': 'x' },
      { path: '/b', ms: 1.5 },
    ]);
    const res = await put('/v3/table/import/web/events/msgpack.gz', body);
    expect(res.status).toBe(200);
    const answer = tableImported.parse(await res.json());
    expect(answer).toMatchObject({ database: 'web', table: 'events', records: 2, unique_id: null, duplicate: false });
    expect(answer.elapsed_time).toBeGreaterThanOrEqual(0);
    const receiveTime = Math.floor(h.clock.now().getTime() / 1000);
    expect(await tail()).toEqual([
      `{"time":${receiveTime},"path":"/b","ms":1.5}`,
      '{"time":1700000000,"path":"/a","_v":"kept as _v","page_url":"x"}',
    ]);
    const shown = (await (await h.call('GET', '/v3/table/show/web/events')).json()) as {
      count: number;
      schema: string;
    };
    expect(shown.count).toBe(2);
    expect(JSON.parse(shown.schema).map((c: string[]) => c[0])).toEqual(['path', '_v', 'page_url', 'ms']);
  });

  it('reads msgpack bin keys and values as text, as Ruby writers send them', async () => {
    const bin = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      return [0xc4, bytes.length, ...bytes];
    };
    const record = [0x82, ...bin('time'), 0xce, ...Buffer.from('6553f100', 'hex'), ...bin('user'), ...bin('bøb')];
    const res = await put('/v3/table/import/web/events/msgpack.gz', gzipSync(Buffer.from(record)));
    expect(res.status).toBe(200);
    expect(await tail()).toEqual(['{"time":1700000000,"user":"bøb"}']);
  });

  it('takes write-only keys, and an empty gzip (fluent-plugin-td’s check that the table exists)', async () => {
    const empty = await put('/v3/table/import/web/events/msgpack.gz', gzipSync(Buffer.alloc(0)), {
      key: h.admin.writeOnlyKey,
    });
    expect(empty.status).toBe(200);
    expect(await empty.json()).toMatchObject({ records: 0 });
    const one = await put('/v3/table/import/web/events/msgpack.gz/', await encodePart([{ time: 1, a: 1 }]), {
      key: h.admin.writeOnlyKey,
    });
    expect(one.status).toBe(200);
    expect(await count()).toBe(1);
    expect(
      (await put('/v3/table/import/web/events/msgpack.gz', gzipSync(Buffer.alloc(0)), { key: 'x/y' })).status,
    ).toBe(401);
  });

  it('answers 404 for a missing database or table, and the clients’ auto-create then succeeds', async () => {
    const body = await encodePart([{ time: 1, a: 1 }]);
    expect((await put('/v3/table/import/web/fresh/msgpack.gz', body)).status).toBe(404);
    expect((await put('/v3/table/import/newdb/fresh/msgpack.gz', body)).status).toBe(404);
    // What `td table:import --auto-create-table` does: create both (409 when present is fine), then import.
    expect((await h.call('POST', '/v3/database/create/web')).status).toBe(409);
    expect((await h.call('POST', '/v3/table/create/web/fresh/log')).status).toBe(200);
    expect((await put('/v3/table/import/web/fresh/msgpack.gz', body)).status).toBe(200);
    expect(await tail('fresh')).toEqual(['{"time":1,"a":1}']);
    const other = await h.newAccount('Other');
    expect((await put('/v3/table/import/web/events/msgpack.gz', body, { key: other.masterKey })).status).toBe(404);
  });

  it('refuses other formats with 400 naming msgpack.gz, and imports nothing from a bad body', async () => {
    const body = await encodePart([{ time: 1, a: 1 }]);
    const json = await put('/v3/table/import/web/events/json', body);
    expect(json.status).toBe(400);
    expect(await message(json)).toContain('send the records as msgpack.gz');
    const notGzip = await put('/v3/table/import/web/events/msgpack.gz', Buffer.from('{"time":1}'));
    expect(notGzip.status).toBe(400);
    expect(await message(notGzip)).toContain('not a valid gzip');
    const badTime = await put(
      '/v3/table/import/web/events/msgpack.gz',
      await encodePart([
        { time: 1, a: 1 },
        { time: 'yesterday', a: 2 },
      ]),
    );
    expect(badTime.status).toBe(400);
    expect(await message(badTime)).toMatch(/^Record 2: "time" must be an integer.*Nothing was imported\.$/);
    const badKey = await put('/v3/table/import/web/events/msgpack.gz', await encodePart([{ time: 1, '': 2 }]));
    expect(badKey.status).toBe(400);
    expect(await message(badKey)).toContain('Record 1:');
    const empty = await put('/v3/table/import/web/events/msgpack.gz', new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(await count()).toBe(0);
  });

  it('refuses a body past the limits with 413: declared, or a gzip that expands too far', async () => {
    const declared = await h.call('PUT', '/v3/table/import/web/events/msgpack.gz', {
      body: gzipSync(Buffer.alloc(0)),
      headers: { 'content-length': String(33 * 1024 * 1024) },
    });
    expect(declared.status).toBe(413);
    // Valid records all the way, so the decompressed size is what stops it.
    const record = Buffer.from(encodeRecords([{ time: 1, text: 'x'.repeat(1000) }]));
    const bomb = gzipSync(Buffer.concat(Array.from({ length: (65 * 1024 * 1024) / record.length }, () => record)));
    const expanded = await put('/v3/table/import/web/events/msgpack.gz', bomb);
    expect(expanded.status).toBe(413);
    expect(await message(expanded)).toContain('decompressed');
    expect(await count()).toBe(0);
  }, 60_000);
});

describe('PUT /v3/table/import_with_id/:db/:table/:unique_id/msgpack.gz', () => {
  const path = (id: string) => `/v3/table/import_with_id/web/events/${id}/msgpack.gz`;

  it('imports a unique id once: a retry answers duplicate and writes nothing, even after a restart', async () => {
    const body = await encodePart([
      { time: 1, a: 1 },
      { time: 2, a: 2 },
    ]);
    const first = await put(path('5f2b6e0c9a1d4e3f'), body);
    expect(await first.json()).toMatchObject({ records: 2, unique_id: '5f2b6e0c9a1d4e3f', duplicate: false });
    const again = await put(path('5f2b6e0c9a1d4e3f'), body);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ records: 0, duplicate: true });
    expect(await count()).toBe(2);
    h = await h.restart();
    expect(await (await put(path('5f2b6e0c9a1d4e3f'), body)).json()).toMatchObject({ duplicate: true });
    expect(await (await put(path('another-id'), body)).json()).toMatchObject({ records: 2, duplicate: false });
    expect(await count()).toBe(4);
  });

  it('imports concurrent uploads of one id once, from two nodes on PostgreSQL', async () => {
    const body = await encodePart([{ time: 7, n: 1 }]);
    // Two nodes share one data folder only in the PostgreSQL mode: an embedded DuckDB file admits one process
    // (decision 0038), so the embedded pass sends every upload to one node.
    const second = h.deps.storage.backend === 'postgres' ? await h.secondNode() : h;
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => put(path('chunk-1'), body, { on: i % 2 === 0 ? h : second })),
      );
      expect(
        answers.map((r) => r.status),
        [...h.logs, ...second.logs].join('\n'),
      ).toEqual([200, 200, 200, 200, 200, 200]);
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as { duplicate: boolean }[];
      expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
      expect(await tail()).toEqual(['{"time":7,"n":1}']);
    } finally {
      if (second !== h) await second.close();
    }
  });

  it('keeps ids apart per table, and refuses a malformed id with 400', async () => {
    expect((await h.call('POST', '/v3/table/create/web/other/log')).status).toBe(200);
    const body = await encodePart([{ time: 1, a: 1 }]);
    await put(path('same-id'), body);
    const elsewhere = await put('/v3/table/import_with_id/web/other/same-id/msgpack.gz', body);
    expect(await elsewhere.json()).toMatchObject({ records: 1, duplicate: false });
    const spaced = await put(path(encodeURIComponent('has space')), body);
    expect(spaced.status).toBe(400);
    expect(await message(spaced)).toContain('"unique_id"');
  });
});
