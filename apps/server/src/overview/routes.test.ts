import { type OverviewFigures, overviewFigures } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRows, requireDatabase } from '../data';
import { run as runTableSeed } from '../jobs/testing/jobs';
import { DAY_MS, launchOverOneProfile } from '../journey-engine/testing/launched';
import { run, sql } from '../platform/storage';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';

/** `GET /console-api/overview`: the figures of the console's landing page, from kept figures, per account. */

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

async function overview(cookie: string): Promise<OverviewFigures> {
  const res = await consoleCall(h, 'GET', '/console-api/overview', { cookie });
  expect(res.status).toBe(200);
  return overviewFigures.parse(await res.json());
}

const rows = (n: number, path: string) =>
  Array.from({ length: n }, (_, i) => ({ time: 1_700_000_000 + i, path, ms: i }));

describe(`console overview figures (${testBackend()})`, () => {
  it('counts rows ingested per day over 14 days, jobs today by state and the biggest tables', async () => {
    expect((await h.call('POST', '/v3/database/create/web')).status).toBe(200);
    const web = await requireDatabase(h.deps.storage.db, h.admin.accountId, 'web');
    const today = Math.floor(h.clock.now().getTime() / DAY_MS) * DAY_MS;
    h.clock.set(today - 20 * DAY_MS + 1000);
    await appendRows(h.deps, web, 'old', rows(9, '/old'), { createTable: true });
    h.clock.set(today - DAY_MS + 1000);
    await appendRows(h.deps, web, 'pageviews', rows(3, '/a'), { createTable: true });
    h.clock.set(today + 1000);
    await appendRows(h.deps, web, 'pageviews', rows(4, '/b'), { createTable: true });
    await appendRows(h.deps, web, 'clicks', rows(2, '/c'), { createTable: true });
    // A replace that leaves fewer rows ingests nothing.
    await appendRows(h.deps, web, 'clicks', rows(1, '/c'), { replace: true });

    await runTableSeed(h, 'web', 'SELECT count(*) AS n FROM pageviews');
    await runTableSeed(h, 'web', 'SELECT nope FROM pageviews');

    const cookie = await signIn(h);
    const figures = await overview(cookie);
    expect(figures.ingestedByDay).toHaveLength(14);
    expect(figures.ingestedByDay.at(-1)).toEqual({ day: new Date(today).toISOString().slice(0, 10), records: 6 });
    expect(figures.ingestedByDay.at(-2)?.records).toBe(3);
    // The write 20 days ago is outside the window.
    expect(figures.ingestedByDay.reduce((sum, d) => sum + d.records, 0)).toBe(9);
    expect(figures.jobsToday).toEqual([
      { status: 'error', jobs: 1 },
      { status: 'success', jobs: 1 },
    ]);
    expect(figures.biggestTables.map((t) => [t.database, t.table, t.records])).toEqual([
      ['web', 'old', 9],
      ['web', 'pageviews', 7],
      ['web', 'clicks', 1],
    ]);
    expect(figures.biggestTables[0]?.bytes).toBeGreaterThan(0);

    // Tomorrow, today's jobs are yesterday's.
    h.clock.set(today + DAY_MS + 1000);
    expect((await overview(await signIn(h))).jobsToday).toEqual([]);
  }, 120_000);

  it('lists launched journeys with entries and goals, and parent segment sizes; another account sees none', async () => {
    const ids = await launchOverOneProfile(h);
    const at = h.clock.now().getTime();
    const journeyId = Number(ids.journeyId);
    // The day counts a run keeps with its events (three entries today, one goal yesterday, a stage).
    const day = Math.floor(at / DAY_MS);
    for (const [kind, fid, onDay, n] of [
      ['entered', '', day, 3],
      ['stage', ids.stage1, day, 1],
      ['goal', '', day - 1, 1],
    ] as const) {
      await run(
        h.deps.storage.db,
        sql`INSERT INTO journey_figure_days (account_id, journey_id, kind, fid, sub, day, prev_day, n)
            VALUES (${h.admin.accountId}, ${journeyId}, ${kind}, ${fid}, '', ${onDay}, -1, ${n})`,
      );
    }
    const figures = await overview(await signIn(h));
    expect(figures.journeys).toEqual([
      { id: ids.journeyId, name: expect.any(String), paused: false, entered: 3, goalReached: 1 },
    ]);
    expect(figures.parentSegments).toEqual([{ id: expect.any(String), name: 'Shop customers', profiles: 1 }]);
    expect(figures.biggestTables.map((t) => `${t.database}.${t.table}`)).toContain('shop.customers');

    const other = await h.newAccount('Other');
    const theirs = await overview(await signIn(h, other.email));
    expect(theirs).toMatchObject({ jobsToday: [], journeys: [], parentSegments: [], biggestTables: [] });
    expect(theirs.ingestedByDay.every((d) => d.records === 0)).toBe(true);
  }, 120_000);

  it('answers 401 without a console session', async () => {
    const res = await consoleCall(h, 'GET', '/console-api/overview');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { message: string }).message).toMatch(/not signed in/);
  });
});
