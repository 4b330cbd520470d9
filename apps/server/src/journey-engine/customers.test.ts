import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';
import { json, type LaunchedIds, launchOverOneProfile } from './fixture';
import { recountPositions } from './positions';

/**
 * The Profiles list pages by key (`after`, the cursor in meta.next) as well as by number, with its filters;
 * a cursor it did not give, and a statistics window that makes no sense, are 400s saying what to send.
 */

interface Page {
  data: Array<{ profileKey: string; status: string }>;
  meta: { total: number; page: number; perPage: number; next: string | null };
}

describe(`journey profiles in keyset pages (${testBackend()})`, () => {
  let h: Harness;
  let ids: LaunchedIds;
  // Keys with characters a URL or a cursor could trip on, in no particular order.
  const keys = Array.from({ length: 23 }, (_, i) => (i % 5 === 0 ? `k/${i} é&=` : `k${String(i).padStart(2, '0')}`));

  beforeAll(async () => {
    h = await createHarness();
    ids = await launchOverOneProfile(h);
    const at = h.clock.now().getTime();
    for (const [i, key] of keys.entries()) {
      await run(
        h.deps.storage.db,
        sql`INSERT INTO journey_profile_states (account_id, journey_id, profile_key, status, stage_id, step_id,
              journey_entered_at, stage_entered_at, step_entered_at, entries, left_at, left_reason, variants, branches,
              held, last_run_at)
            VALUES (${h.admin.accountId}, ${Number(ids.journeyId)}, ${key}, ${i % 4 === 0 ? 'left' : 'active'},
              ${ids.stage1}, 'wait3', ${at}, ${at}, ${at}, 1, NULL, NULL, '{}', '{}', 0, ${at})`,
      );
    }
    // The position counts a run keeps with the states it writes.
    await recountPositions(h.deps.storage.db, h.admin.accountId, Number(ids.journeyId));
  }, 60_000);
  afterAll(() => h.close());

  const list = (query: string) => h.call('GET', `/entities/journeys/${ids.journeyId}/customers?${query}`);

  /** Every page from the first, following meta.next. */
  async function walk(query: string) {
    const seen: string[] = [];
    let pages = 0;
    let next: string | null = null;
    do {
      const cursor: string = next === null ? '' : `&after=${encodeURIComponent(next)}`;
      const page: Page = await json<Page>(list(`${query}&per_page=5${cursor}`));
      seen.push(...page.data.map((c) => c.profileKey));
      next = page.meta.next;
      pages++;
    } while (next !== null && pages < 100);
    return { seen, pages };
  }

  it('walks every profile once, in key order, with the filters, and ends with a null cursor', async () => {
    const all = await walk('status=all');
    // Every key once, in the database's own key order (the order of the numbered pages).
    const whole = await json<Page>(list('status=all&per_page=1000'));
    expect(all.seen).toEqual(whole.data.map((c) => c.profileKey));
    expect([...all.seen].sort()).toEqual([...keys].sort());
    expect(all.pages).toBe(5);
    const active = await walk('status=active');
    expect(active.seen).toEqual(all.seen.filter((k) => keys.indexOf(k) % 4 !== 0));
    // The same pages as by number.
    const byNumber = await json<Page>(list('status=all&per_page=5&page=2'));
    const first = await json<Page>(list('status=all&per_page=5'));
    const second = await json<Page>(list(`status=all&per_page=5&after=${encodeURIComponent(first.meta.next ?? '')}`));
    expect(second.data).toEqual(byNumber.data);
    expect(second.meta.total).toBe(keys.length);
  });

  it('refuses a cursor it did not give, or one sent with a page number, saying what to send', async () => {
    for (const bad of ['not a cursor', '%%%', 'YQ=', Buffer.from('x'.repeat(2000)).toString('base64url')]) {
      const res = await list(`after=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('meta.next');
    }
    const first = await json<Page>(list('status=all&per_page=5'));
    const both = await list(`page=3&after=${encodeURIComponent(first.meta.next ?? '')}`);
    expect(both.status).toBe(400);
    expect(((await both.json()) as { message: string }).message).toContain('not both');
  });

  it('refuses a statistics window that makes no sense, saying why', async () => {
    const statistics = (query: string) => h.call('GET', `/entities/journeys/${ids.journeyId}/statistics?${query}`);
    for (const [query, says] of [
      ['from=yesterday', 'give a date such as'],
      ['to=2026-13-45', 'give a date such as'],
      ['from=2026-12-31&to=2026-12-01', 'swap'],
    ] as const) {
      const res = await statistics(query);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { message: string }).message, query).toContain(says);
    }
  });
});
