import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';
import { countKept, json, type LaunchedIds, launchOverOneProfile } from './fixture';

/**
 * The statistics of a large journey are counted off the request loop (a worker thread, decision 0033): the
 * health probe keeps answering while they are read. The journey's log is written straight
 * into the tables (a run of this size would take the test's time for nothing); the request takes the one code
 * path statistics have at every size (route, worker, the database's counts), so what holds here holds at
 * millions of profiles, where the counting only takes longer.
 */

const PROFILES = 40_000;

describe(`statistics of a large journey (${testBackend()})`, () => {
  let h: Harness;
  let ids: LaunchedIds;

  beforeEach(async () => {
    h = await createHarness();
    ids = await launchOverOneProfile(h);
    const at = h.clock.now().getTime() - 60_000;
    const journeyId = Number(ids.journeyId);
    const accountId = h.admin.accountId;
    // Each profile's three events of the run, as a run logs them (eventLog.ts).
    const events = JSON.stringify([
      ['journey_entered', ids.stage1],
      ['stage_entered', ids.stage1],
      ['step_entered', ids.stage1, 'wait3'],
    ]);
    await run(
      h.deps.storage.db,
      sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${PROFILES - 1})
          INSERT INTO journey_run_events (account_id, journey_id, run_id, at, profile_key, events)
          SELECT ${accountId}, ${journeyId}, 1, ${at}, 'k' || CAST(i AS TEXT), ${events}
          FROM n`,
    );
    await run(
      h.deps.storage.db,
      sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${PROFILES - 1})
          INSERT INTO journey_profile_states (account_id, journey_id, profile_key, status, stage_id, step_id,
            journey_entered_at, stage_entered_at, step_entered_at, entries, left_at, left_reason, variants, branches,
            held, last_run_at)
          SELECT ${accountId}, ${journeyId}, 'k' || CAST(i AS TEXT), 'active', ${ids.stage1}, 'wait3', ${at}, ${at},
            ${at}, 1, NULL, NULL, '{}', '{}', 0, ${at}
          FROM n`,
    );
    // The position and day counts a run keeps with the states and events it writes.
    await countKept(h, ids);
    // And the mark a run leaves on a re-entry's figure whose previous time it did not read (figureCounts.ts
    // UNKNOWN): a window holding it is counted over the event log, the heavy read this test is about.
    for (const [table, time, prev, value] of [
      ['journey_figure_instants', 'at', 'prev_at', at],
      ['journey_figure_days', 'day', 'prev_day', Math.floor(at / 86_400_000)],
    ] as const) {
      await run(
        h.deps.storage.db,
        sql`INSERT INTO ${sql.raw(table)} (account_id, journey_id, kind, fid, sub, ${sql.raw(time)}, ${sql.raw(prev)}, n)
            VALUES (${accountId}, ${journeyId}, 'entered', '', '', ${value}, -2, 0)`,
      );
    }
  }, 60_000);
  afterEach(() => h.close());

  it('keeps the health probe answering while they are counted, and counts every profile', async () => {
    // Every window holds the re-entry's mark, so each is counted over the event log (the heavy read).
    const day = 86_400_000;
    const inside = new Date(Math.floor(h.clock.now().getTime() / day) * day - day + 1).toISOString();
    const windows = [`?from=${inside}`, `?from=${inside}`, ''];
    const latencies: number[] = [];
    for (const window of windows) {
      let done = false;
      const answer = json<{ data: { entered: number; entries: number; current: number } }>(
        h.call('GET', `/entities/journeys/${ids.journeyId}/statistics${window}`),
      ).finally(() => {
        done = true;
      });
      while (!done) {
        const started = performance.now();
        const res = await h.call('GET', '/v3/system/server_status', { key: null });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        // An in-process probe never waits on I/O: let the loop take the worker's messages between two.
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect((await answer).data).toMatchObject({ entered: PROFILES, entries: PROFILES, current: PROFILES });
    }
    // The probes ran all along the counting, many of them: counted on the loop, it would have let one or two
    // through per read. How fast they answer under load is a figure for the bench, not a timed assertion here.
    expect(latencies.length).toBeGreaterThan(20);
  });
});
