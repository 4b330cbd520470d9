import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { auditLog, storedEntries } from './testing/entries';

/** Reading the log: filters, pages, CSV, who may read it, and that nothing can change it. */
describe('/v3/account/audit_log', () => {
  let h: Harness;
  let annKey: string;
  const ANN = 'ann@first.test';
  const HOUR = 3_600_000;
  const start = Date.UTC(2026, 10, 22, 9, 0, 0);

  beforeEach(async () => {
    h = await createHarness();
    // 09:00 the administrator adds Ann; 10:00 gives her a key; 11:00 Ann makes a key of her own.
    await h.call('POST', '/v3/user/add/ann', { form: { email: ANN, password: 'long enough pw' } });
    h.clock.advance(HOUR);
    const created = await h.call('POST', `/v3/user/apikey/add/ann`, { form: { name: 'Ann’s laptop' } });
    annKey = ((await created.json()) as { apikey: string }).apikey;
    h.clock.advance(HOUR);
    await h.call('POST', `/v3/user/apikey/add/ann`, { key: annKey, form: { name: 'Ann, "nightly" export' } });
  });
  afterEach(() => h.close());

  it('answers newest first, filtered by action, actor (any case) and time', async () => {
    const all = await auditLog(h);
    expect(all.events.map((e) => [e.action, e.actor])).toEqual([
      ['api_key.create', ANN],
      ['api_key.create', h.admin.email],
      ['user.create', h.admin.email],
    ]);
    expect(all.events[2]).toMatchObject({
      target: ANN,
      outcome: 'success',
      at: '2026-11-22T09:00:00.000Z',
      details: { name: 'ann', role: 'member', via: expect.stringMatching(/^master key \d+$/) },
    });

    const keys = await auditLog(h, '?action=api_key.create');
    expect(keys.events.map((e) => e.actor)).toEqual([ANN, h.admin.email]);
    const byAnn = await auditLog(h, `?actor=${encodeURIComponent(ANN.toUpperCase())}`);
    expect(byAnn.events.map((e) => e.details?.name)).toEqual(['Ann, "nightly" export']);
    const several = await auditLog(h, '?action=user.create,user.remove');
    expect(several.events.map((e) => e.action)).toEqual(['user.create']);

    const from = new Date(start + HOUR / 2).toISOString();
    const to = new Date(start + (3 * HOUR) / 2).toISOString();
    const window = await auditLog(h, `?from=${from}&to=${to}`);
    expect(window.events.map((e) => e.details?.name)).toEqual(['Ann’s laptop']);
    // A date alone is that day from midnight UTC; "to" is exclusive.
    expect((await auditLog(h, '?from=2026-11-22&to=2026-11-23')).events).toHaveLength(3);
    expect((await auditLog(h, '?from=2026-11-23')).events).toHaveLength(0);
    expect((await auditLog(h, `?to=${new Date(start).toISOString()}`)).events).toHaveLength(0);
  });

  it('pages back with next_before until it is null, never repeating an entry', async () => {
    const seen: number[] = [];
    let page = await auditLog(h, '?limit=2');
    seen.push(...page.events.map((e) => e.id));
    expect(page.next_before).not.toBeNull();
    page = await auditLog(h, `?limit=2&before=${page.next_before}`);
    seen.push(...page.events.map((e) => e.id));
    expect(page.next_before).toBeNull();
    expect(seen).toEqual((await storedEntries(h)).map((e) => e.id).reverse());
    const filtered = await auditLog(h, '?limit=1&action=api_key.create');
    const rest = await auditLog(h, `?limit=1&action=api_key.create&before=${filtered.next_before}`);
    expect([...filtered.events, ...rest.events].map((e) => e.action)).toEqual(['api_key.create', 'api_key.create']);
    expect(rest.next_before).toBeNull();
  });

  it('refuses a filter it cannot read with a 400 that names it', async () => {
    const cases: [string, string][] = [
      ['?action=user.explode', '"user.explode"'],
      ['?action=user.create,', ''],
      ['?from=yesterday', '"from"'],
      ['?from=2026-11-22&to=2026-11-22', '"to" must be later than "from"'],
      ['?to=2026-13-45', '"to"'],
      ['?limit=0', 'limit'],
      ['?before=-3', 'before'],
    ];
    for (const [query, words] of cases) {
      const res = await h.call('GET', `/v3/account/audit_log${query}`);
      if (words === '') {
        expect(res.status, query).toBe(200);
        continue;
      }
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toContain(words);
    }
    const csv = await h.call('GET', '/v3/account/audit_log.csv?action=nothing');
    expect(csv.status).toBe(400);
  });

  it('is for administrators of the account only', async () => {
    for (const path of ['/v3/account/audit_log', '/v3/account/audit_log.csv', '/v3/account/audit_log/actions']) {
      expect((await h.call('GET', path, { key: annKey })).status, path).toBe(403);
      expect((await h.call('GET', path, { key: h.admin.writeOnlyKey })).status, path).toBe(403);
      expect((await h.call('GET', path, { key: null })).status, path).toBe(401);
    }
    const other = await h.newAccount('Other');
    expect((await auditLog(h, '', other.masterKey)).events).toEqual([]);
  });

  it('exports the filtered entries as CSV, newest first, quoted and safe to open in a spreadsheet', async () => {
    await h.call('POST', '/v3/user/add/mallory', { form: { email: '-2+3@first.test', password: 'long enough pw' } });
    const res = await h.call('GET', '/v3/account/audit_log.csv?action=user.create,api_key.create');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-log-2026-11-22.csv"');
    const lines = (await res.text()).split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe('id,time,actor,action,target,outcome,reason,details');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual([
      'user.create',
      'api_key.create',
      'api_key.create',
      'user.create',
    ]);
    // A target that a spreadsheet would read as a formula starts with an apostrophe.
    expect(lines[1]).toContain(",user.create,'-2+3@first.test,success,,");
    // Quotes in the details are doubled inside a quoted field.
    expect(lines[2]).toContain('""name"":""Ann, \\""nightly\\"" export""');
    const byTime = await h.call('GET', '/v3/account/audit_log.csv?from=2026-11-22T10:30:00Z&to=2026-11-22T11:30:00Z');
    // Ann's own key and Mallory, both at 11:00.
    expect((await byTime.text()).trim().split('\r\n')).toHaveLength(3);
  });

  it('exports a log longer than one read page in full', async () => {
    const many = 1205;
    const values = Array.from(
      { length: many },
      (_, i) =>
        sql`(${h.admin.accountId}, ${start + i}, NULL, ${`bot${i}`}, 'user.sign_in', NULL, 'failure', 'wrong_password', NULL)`,
    );
    await run(
      h.deps.storage.db,
      sql`INSERT INTO audit_events (account_id, at, actor_user_id, actor, action, target, outcome, reason, details)
          VALUES ${sql.join(values)}`,
    );
    const text = await (await h.call('GET', '/v3/account/audit_log.csv?action=user.sign_in')).text();
    const rows = text.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(many);
    expect(rows[0]).toContain(`,bot${many - 1},`);
    expect(rows.at(-1)).toContain(',bot0,');
  });

  it('lists the actions it records, by group', async () => {
    const res = await h.call('GET', '/v3/account/audit_log/actions');
    const groups = (await res.json()) as Record<string, Record<string, string>>;
    expect(groups.Journeys).toMatchObject({
      'journey.launch': 'Journey launched',
      'journey.delete': 'Journey deleted',
    });
    expect(groups['API keys']).toHaveProperty('api_key.revoke');
  });

  it('cannot be changed or deleted, even by a statement sent straight to the database', async () => {
    const before = await storedEntries(h);
    const db = h.deps.storage.db;
    await expect(run(db, sql`UPDATE audit_events SET actor = 'someone else'`)).rejects.toThrow(/append-only/);
    await expect(run(db, sql`DELETE FROM audit_events WHERE account_id = ${h.admin.accountId}`)).rejects.toThrow(
      /append-only/,
    );
    expect(await storedEntries(h)).toEqual(before);
    expect(before).toHaveLength(3);
  });
});
