import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseRow, findDatabase, findTable, tailRows } from '../data';
import { createHarness, type Harness } from '../testing/harness';

const SDK_TYPE = 'application/vnd.treasuredata.v1+json';
const ORIGIN = 'https://shop.example';

describe('records API for browser SDKs', () => {
  let h: Harness;
  let database: DatabaseRow;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
    database = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events')) as DatabaseRow;
  });
  afterEach(() => h.close());

  const send = (path: string, body: unknown, opts: { key?: string | null; type?: string; origin?: string } = {}) =>
    h.call('POST', path, {
      key: opts.key === undefined ? h.admin.writeOnlyKey : opts.key,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': opts.type ?? SDK_TYPE, origin: opts.origin ?? ORIGIN },
    });
  const rows = async (table: string) => {
    const t = await findTable(h.deps.storage.db, h.admin.accountId, database.id, table);
    return t ? await tailRows(h.deps, database, t, 1000) : [];
  };

  it('stores what td-js-sdk sends: one event, vendor content type, query string, echoed origin', async () => {
    const res = await send('/web_events/pageviews?modified=1700000000123&time=1700000000', {
      events: [{ path: '/home', time: 1_700_000_000 }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ database: 'web_events', table: 'pageviews', imported: 1 });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await rows('pageviews')).toEqual([{ time: 1_700_000_000, path: '/home' }]);
  });

  it('stores a batch of 500 with plain JSON and a master key; time defaults to the receive time', async () => {
    const events = Array.from({ length: 500 }, (_, i) => ({ i }));
    const res = await send('/web_events/batch', { events }, { type: 'application/json', key: h.admin.masterKey });
    expect(res.status).toBe(200);
    const stored = await rows('batch');
    expect(stored).toHaveLength(500);
    expect(stored[0]?.time).toBe(Math.floor(h.clock.now().getTime() / 1000));
    expect((await findTable(h.deps.storage.db, h.admin.accountId, database.id, 'batch'))?.count).toBe(500);
  });

  it('refuses a batch of 501 events, or none, with 400 and stores nothing', async () => {
    const res = await send('/web_events/batch', { events: Array.from({ length: 501 }, (_, i) => ({ i })) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('at most 500 events');
    expect((await send('/web_events/batch', { events: [] })).status).toBe(400);
    expect((await send('/web_events/batch', { nothing: true })).status).toBe(400);
    expect(await rows('batch')).toEqual([]);
  });

  it('refuses a whole batch when one event is bad, naming it', async () => {
    const res = await send('/web_events/batch', { events: [{ a: 1 }, { time: 'soon' }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Event 1: "time" must be an integer/);
    expect(await rows('batch')).toEqual([]);
  });

  it('refuses an event over 1 MiB with 413 and a body over 5 MiB with 413', async () => {
    const oneBig = await send('/web_events/big', { events: [{ s: 'x'.repeat(1024 * 1024) }] });
    expect(oneBig.status).toBe(413);
    const huge = Array.from({ length: 6 }, () => ({ s: 'y'.repeat(1000 * 1000) }));
    expect((await send('/web_events/big', { events: huge })).status).toBe(413);
  });

  it('refuses other content types with 415, bad keys with 401, missing databases with 404', async () => {
    expect((await send('/web_events/tab1', { events: [{ a: 1 }] }, { type: 'text/plain' })).status).toBe(415);
    expect((await send('/web_events/tab1', { events: [{ a: 1 }] }, { key: null })).status).toBe(401);
    const other = await h.newAccount('Other');
    const foreign = await send('/web_events/tab1', { events: [{ a: 1 }] }, { key: other.writeOnlyKey });
    expect(foreign.status).toBe(404);
    expect((await send('/no_such_db/tab1', { events: [{ a: 1 }] })).status).toBe(404);
  });

  it('answers the CORS preflight of any origin with the origin echoed and credentials allowed', async () => {
    const res = await h.call('OPTIONS', '/web_events/pageviews', {
      key: null,
      headers: {
        origin: 'https://any.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, user-agent',
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://any.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, user-agent');
  });

  it('gives no CORS headers to a preflight on a non-ingestion route', async () => {
    for (const path of ['/v3/database/list', '/v3/table/list/web_events', '/console-api/me']) {
      const res = await h.call('OPTIONS', path, {
        key: null,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
    const get = await h.call('GET', '/v3/database/list', { headers: { origin: 'https://evil.example' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('does not swallow other paths', async () => {
    const status = await h.call('GET', '/v3/system/server_status', { key: null });
    expect(status.status).toBe(200);
    const doc = await h.call('GET', '/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(Object.keys(((await doc.json()) as { paths: object }).paths)).toContain('/{db}/{table}');
    // Paths outside the name rule, and the service's own top-level segments, fall through to 404.
    for (const path of ['/v3/nothing', '/Web_Events/tab1', '/entities/nothing', '/postback/other']) {
      const res = await send(path, { events: [{ a: 1 }] });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
    // A GET of a two-segment path (a console page) is not the records API.
    expect((await h.call('GET', '/web_events/pageviews', { key: null })).status).toBe(404);
  });
});
