import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertId, many, sql, withLock } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { testBackend } from '../testing/storage';
import { json, launchScenario, type Person, seedParentSegment, seedSegments } from './fixture';
import { createJourneyScheduler } from './scheduler';
import { runLock } from './tasks';
import { loggedEventsOf } from './testing/loggedEvents';

/**
 * Two nodes on one database (issue 16): each journey's scheduled firing runs on one node only, and a run
 * under way (on either node) takes the place of a firing that comes due meanwhile.
 */
describe(`the journey engine's schedule on two nodes (${testBackend()})`, () => {
  let a: Harness;
  let b: Harness;
  beforeEach(async () => {
    a = await createHarness();
    b = await a.secondNode();
  });
  afterEach(async () => {
    await b.close();
    await a.close();
  });

  const scheduleRuns = async (journeyId: number) =>
    (
      await many<{ status: string }>(
        a.deps.storage.db,
        sql`SELECT status FROM journey_runs WHERE journey_id = ${journeyId} AND trigger = 'schedule' ORDER BY id`,
      )
    ).length;

  /** A launched journey whose parent segment has since been deleted: every firing records a failed run. */
  const orphanJourney = () =>
    insertId(
      a.deps.storage.db,
      sql`INSERT INTO journeys (account_id, parent_segment_id, folder_id, name, state, paused, document, created_at,
            updated_at, launched_at)
          VALUES (${a.admin.accountId}, '999999', '1', 'Orphan', 'launched', 0,
            ${JSON.stringify({ description: null, goal: null, allowReentry: false, journeyStages: [] })}, 0, 0, 0)
          RETURNING id`,
    );

  it('fires each journey once per interval, whichever node ticks first', async () => {
    const journeyId = await orphanJourney();
    const onA = createJourneyScheduler(a.deps);
    const onB = createJourneyScheduler(b.deps);
    await Promise.all([onA.tick(), onB.tick()]);
    expect(await scheduleRuns(journeyId)).toBe(1);
    // Later in the same minute: the firing is taken.
    a.clock.advance(20_000);
    await Promise.all([onB.tick(), onA.tick()]);
    expect(await scheduleRuns(journeyId)).toBe(1);
    // The next minute fires once more.
    a.clock.advance(60_000);
    await Promise.all([onA.tick(), onB.tick()]);
    expect(await scheduleRuns(journeyId)).toBe(2);
    expect(a.logs.join('\n') + b.logs.join('\n')).toContain('journey run failed');
  });

  it('lets a run under way on the other node take the place of the firing', async () => {
    const journeyId = await orphanJourney();
    let released!: () => void;
    const release = new Promise<void>((resolve) => {
      released = resolve;
    });
    let held!: () => void;
    const holds = new Promise<void>((resolve) => {
      held = resolve;
    });
    const holding = withLock(b.deps.storage, runLock({ account_id: a.admin.accountId, id: journeyId }), () => {
      held();
      return release;
    });
    await holds;
    try {
      expect(await createJourneyScheduler(a.deps).tick()).toEqual([]);
      expect(await scheduleRuns(journeyId)).toBe(0);
    } finally {
      released();
      await holding;
    }
    a.clock.advance(60_000);
    await createJourneyScheduler(a.deps).tick();
    expect(await scheduleRuns(journeyId)).toBe(1);
  });

  it('moves the profiles of a real journey once when both nodes tick at the same moment', async () => {
    const people: Person[] = ['p1', 'p2', 'p3'].map((id) => ({
      customer_id: id,
      vip: 0,
      engaged_at: 0,
      bought_at: 0,
      unsub_at: 0,
    }));
    const parentId = await seedParentSegment(a, people);
    const { journeyId } = await launchScenario(a, parentId, await seedSegments(a, parentId));
    const summaries = (
      await Promise.all([createJourneyScheduler(a.deps).tick(), createJourneyScheduler(b.deps).tick()])
    ).flat();
    expect(summaries).toEqual([expect.objectContaining({ status: 'success', profiles: 3, changed: 3 })]);
    const entered = (await loggedEventsOf(a.deps.storage.db, Number(journeyId))).filter(
      (e) => e.type === 'journey_entered',
    );
    expect(entered).toHaveLength(3);
    // A run now on the other node, at the same instant, finds nothing left to do.
    const again = await json<{ data: { changed: number } }>(b.call('POST', `/entities/journeys/${journeyId}/run`));
    expect(again.data.changed).toBe(0);
  });
});
