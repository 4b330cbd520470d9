import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { findDatabase, listTables } from './catalog';

/** Names the storage engines reserve are refused with 400 on every path that makes a database or table. */
describe('reserved database and table names', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await h.call('POST', '/v3/database/create/web_events');
  });
  afterEach(() => h.close());

  const RESERVED = [
    'sqlite_master',
    'sqlite_sequence',
    'sqlite_anything',
    'pg_catalog',
    'pg_stats',
    'information_schema',
  ];
  const tables = async () => {
    const db = await findDatabase(h.deps.storage.db, h.admin.accountId, 'web_events');
    return db ? (await listTables(h.deps.storage.db, h.admin.accountId, db.id)).map((t) => t.name) : [];
  };
  const refused = async (res: Response, name: string) => {
    expect(res.status, name).toBe(400);
    const body = (await res.json()) as { error: string; message: string; status_code: number };
    expect(body.status_code).toBe(400);
    expect(body.message).toContain('reserved');
  };

  it('refuses them for new tables and databases', async () => {
    for (const name of RESERVED) {
      await refused(await h.call('POST', `/v3/table/create/web_events/${name}`), name);
      await refused(await h.call('POST', `/v3/table/create/web_events/${name}/log`), name);
      await refused(await h.call('POST', `/v3/database/create/${name}`), name);
    }
    expect(await tables()).toEqual([]);
    expect(await findDatabase(h.deps.storage.db, h.admin.accountId, 'sqlite_master')).toBeNull();
  });

  it('refuses postback and records writes that would create them, with a write-only key, leaving no catalog entry', async () => {
    for (const name of RESERVED) {
      await refused(
        await h.call('POST', `/postback/v3/event/web_events/${name}`, {
          key: null,
          json: { a: 1 },
          headers: { 'x-svc-write-key': h.admin.writeOnlyKey },
        }),
        name,
      );
      await refused(
        await h.call('POST', `/web_events/${name}`, {
          key: h.admin.writeOnlyKey,
          body: JSON.stringify({ events: [{ a: 1 }] }),
          headers: { 'content-type': 'application/json' },
        }),
        name,
      );
    }
    expect(await tables()).toEqual([]);
    // Ordinary names still work on the same paths.
    const ok = await h.call('POST', '/postback/v3/event/web_events/my_sqlite_events', {
      key: null,
      json: { a: 1 },
      headers: { 'x-svc-write-key': h.admin.writeOnlyKey },
    });
    expect(ok.status).toBe(200);
  });
});
