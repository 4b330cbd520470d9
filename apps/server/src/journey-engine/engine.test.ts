import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseRow, findDatabase, findTable, type TableRow, tailRows } from '../data';
import { many, one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { DAY_MS, json, launchScenario, type Person, seedParentSegment, seedSegments } from './fixture';
import { createJourneyScheduler } from './scheduler';
import { loggedEventsOf } from './testing/loggedEvents';
import { variantProfileKeys } from './variants';

interface Customer {
  profileKey: string;
  status: string;
  stageName: string | null;
  stepId: string | null;
  leftReason: string | null;
  waitingUntil: string | null;
  variants: Array<{ variantId: string }>;
  branches: Array<{ branchId: string }>;
}

describe('journey engine in the server', () => {
  let h: Harness;
  let T: number;
  let ids: Awaited<ReturnType<typeof launchScenario>>;
  let parentId: string;

  const at = (day: number) => T + day * DAY_MS;
  const sec = (day: number) => Math.floor(at(day) / 1000);
  const people = (): Person[] => [
    { customer_id: 'p1', vip: 1, engaged_at: 0, bought_at: 0, unsub_at: 0 },
    { customer_id: 'p2', vip: 1, engaged_at: 0, bought_at: 0, unsub_at: 0 },
    { customer_id: 'p3', vip: 1, engaged_at: 0, bought_at: 0, unsub_at: 0 },
    { customer_id: 'p4', vip: 0, engaged_at: sec(4), bought_at: 0, unsub_at: sec(6) },
    { customer_id: 'p5', vip: 0, engaged_at: 0, bought_at: sec(5), unsub_at: 0 },
    { customer_id: 'p6', vip: 0, engaged_at: 0, bought_at: 0, unsub_at: 0 },
  ];

  async function setUp(allowReentry = false) {
    h = await createHarness();
    T = h.clock.now().getTime();
    parentId = await seedParentSegment(h, people());
    const seg = await seedSegments(h, parentId);
    ids = await launchScenario(h, parentId, seg, allowReentry);
  }

  const run = async (day: number) => {
    h.clock.set(at(day));
    return (await json<{ data: Record<string, unknown> }>(h.call('POST', `/entities/journeys/${ids.journeyId}/run`)))
      .data;
  };

  async function customers(query = 'status=all'): Promise<Customer[]> {
    return (await json<{ data: Customer[] }>(h.call('GET', `/entities/journeys/${ids.journeyId}/customers?${query}`)))
      .data;
  }

  async function positions(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const c of await customers()) {
      out[c.profileKey] = c.status === 'left' ? `left:${c.leftReason}` : `${c.stageName}/${c.stepId}`;
    }
    return out;
  }

  const queued = () =>
    many<{ profile_key: string; activation_id: string }>(
      h.deps.storage.db,
      sql`SELECT profile_key, activation_id FROM journey_activation_queue WHERE journey_id = ${Number(ids.journeyId)}
          ORDER BY profile_key`,
    );
  const count = async (table: string) =>
    (await one<{ n: number }>(h.deps.storage.db, sql`SELECT COUNT(*) AS n FROM ${sql.table(table)}`))?.n;

  afterEach(async () => {
    await h.close();
  });

  describe('the two-stage scenario', () => {
    beforeEach(() => setUp());

    it('moves every profile day by day, and the statistics add up', async () => {
      expect(await run(0)).toMatchObject({ status: 'success', profiles: 6, changed: 6 });
      const waiting = Object.fromEntries(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((k) => [k, 'Onboard/wait3']));
      expect(await positions()).toEqual(waiting);
      expect((await customers())[0]?.waitingUntil).toBe(new Date(at(3)).toISOString());

      for (const day of [1, 2]) {
        expect(await run(day)).toMatchObject({ changed: 0, events: 0 });
        expect(await positions()).toEqual(waiting);
      }

      await run(3);
      const afterWait = await customers();
      for (const c of afterWait) expect(c.stepId).toBe('end1');
      const vips = afterWait.filter((c) => c.branches[0]?.branchId === 'br-vip').map((c) => c.profileKey);
      expect(vips).toEqual(['p1', 'p2', 'p3']);
      const offered = afterWait.filter((c) => c.variants[0]?.variantId === 'v-offer').map((c) => c.profileKey);
      expect(await queued()).toEqual(offered.map((k) => ({ profile_key: k, activation_id: ids.activationId })));

      // The activation delivers daily at 06:00 UTC: nothing goes out on day 3 (queued at 09:00, after
      // that day's slot); the scheduler's tick on day 4 runs the journey and delivers.
      const scheduler = createJourneyScheduler(h.deps, { intervalMs: 0 });
      await scheduler.tick();
      const deliveries = `/entities/journeys/${ids.journeyId}/syndications/${ids.activationId}/deliveries`;
      expect((await json<{ data: unknown[] }>(h.call('GET', deliveries))).data).toEqual([]);
      h.clock.set(at(4));
      await scheduler.tick();
      expect((await positions()).p4).toBe('Engaged/end2');
      const sent = (await json<{ data: Array<Record<string, unknown>> }>(h.call('GET', deliveries))).data;
      expect(sent).toEqual([
        expect.objectContaining({ status: 'success', profiles: offered.length, target: 'shop.delivered', error: null }),
      ]);
      const shop = (await findDatabase(h.deps.storage.db, h.admin.accountId, 'shop')) as DatabaseRow;
      const table = (await findTable(h.deps.storage.db, h.admin.accountId, shop.id, 'delivered')) as TableRow;
      const rows = await tailRows(h.deps, shop, table, 100);
      expect(rows.map((r) => r.customer_id).sort()).toEqual(offered);
      expect(rows[0]).toMatchObject({ vip: 1, journey_id: ids.journeyId, activation_id: ids.activationId });
      // Delivered entries are not sent again.
      h.clock.set(at(5) - 60_000);
      await scheduler.tick();
      expect((await json<{ data: unknown[] }>(h.call('GET', deliveries))).data).toHaveLength(1);
      await run(5);
      expect((await positions()).p5).toBe('left:goal');
      await run(6);
      expect((await positions()).p4).toBe('left:exit_segment');

      const stats = (
        await json<{ data: Record<string, unknown> & { stages: Array<Record<string, unknown>> } }>(
          h.call('GET', `/entities/journeys/${ids.journeyId}/statistics`),
        )
      ).data;
      expect(stats).toMatchObject({ entered: 6, current: 4, goalReached: 1 });
      expect(stats.stages[0]).toMatchObject({ entered: 6, current: 4, milestoneReached: 1 });
      expect(stats.stages[1]).toMatchObject({ entered: 1, current: 0 });
      expect(stats.stages[1]).toMatchObject({ exits: [{ name: 'Unsubscribed', profiles: 1 }] });

      await run(20);
      expect(await positions()).toEqual({
        p1: 'left:exit_after',
        p2: 'left:exit_after',
        p3: 'left:exit_after',
        p4: 'left:exit_segment',
        p5: 'left:goal',
        p6: 'left:exit_after',
      });
    });

    it('extends a wait by exactly the 2 days the journey was paused, and runs nothing while paused', async () => {
      await run(0);
      h.clock.set(at(1));
      await json(h.call('PATCH', `/entities/journeys/${ids.journeyId}/pause`));
      h.clock.set(at(3));
      const refused = await h.call('POST', `/entities/journeys/${ids.journeyId}/run`);
      expect(refused.status).toBe(409);
      expect(await createJourneyScheduler(h.deps, { intervalMs: 0 }).tick()).toEqual([]);
      await json(h.call('PATCH', `/entities/journeys/${ids.journeyId}/resume`));
      expect((await customers())[0]?.waitingUntil).toBe(new Date(at(5)).toISOString());
      await run(3);
      h.clock.set(at(5) - 60_000);
      // The schedule runs it too (p4 has become engaged meanwhile, so it moves on to stage 2).
      expect((await createJourneyScheduler(h.deps).tick())[0]).toMatchObject({ status: 'success', changed: 1 });
      expect((await positions()).p6).toBe('Onboard/wait3');
      await run(5);
      expect((await positions()).p6).toBe('Onboard/end1');
    });

    it('changes nothing when run twice at the same instant, even after a restart', async () => {
      await run(0);
      await run(3);
      const before = await positions();
      const events = (await loggedEventsOf(h.deps.storage.db)).length;
      expect(await run(3)).toMatchObject({ changed: 0, events: 0 });
      h = await h.restart();
      expect(await run(3)).toMatchObject({ changed: 0, events: 0 });
      expect(await loggedEventsOf(h.deps.storage.db)).toHaveLength(events);
      expect(await positions()).toEqual(before);
      // The A/B assignments were stored once each.
      expect(await count('journey_ab_assignments')).toBe(3);
    });

    it('lists profiles by stage and step, pages them, and refuses users without Full Control', async () => {
      await run(0);
      const page = await json<{ data: Customer[]; meta: Record<string, number | string | null> }>(
        h.call('GET', `/entities/journeys/${ids.journeyId}/customers?step=wait3&per_page=2&page=2`),
      );
      // A third page follows: its cursor carries the last key of this one.
      expect(page.meta).toEqual({ total: 6, page: 2, perPage: 2, next: Buffer.from('p4').toString('base64url') });
      expect(page.data.map((c) => c.profileKey)).toEqual(['p3', 'p4']);
      await run(4);
      const inStage2 = await customers(`stage=${ids.stage2}`);
      expect(inStage2.map((c) => c.profileKey)).toEqual(['p4']);
      const bad = await h.call('GET', `/entities/journeys/${ids.journeyId}/customers?stage=999`);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toContain('Stage "999" is not in this journey');

      await h.call('POST', '/v3/user/add/ann', { form: { email: 'ann@first.test', password: 'long enough pw' } });
      const key = (await json<{ apikey: string }>(h.call('POST', '/v3/user/apikey/add/ann'))).apikey;
      const forbidden = await h.call('GET', `/entities/journeys/${ids.journeyId}/customers`, { key });
      expect(forbidden.status).toBe(403);
      expect((await h.call('POST', `/entities/journeys/${ids.journeyId}/run`, { key })).status).toBe(403);
      // Statistics need only View.
      expect((await h.call('GET', `/entities/journeys/${ids.journeyId}/statistics`, { key })).status).toBe(200);
    });

    it('selects the profiles of an A/B variant by the location of spec rule 7', async () => {
      await run(0);
      await run(3);
      const offered = (await customers())
        .filter((c) => c.variants[0]?.variantId === 'v-offer')
        .map((c) => c.profileKey);
      const ref = { journeyId: ids.journeyId, journeyStageId: ids.stage1, tense: 'intime' };
      expect(
        await variantProfileKeys(h.deps, h.admin.accountId, { ...ref, location: 'ab_test_offerTest_v-offer' }),
      ).toEqual(offered);
      await expect(variantProfileKeys(h.deps, h.admin.accountId, { ...ref, location: 'ab_test_nope' })).rejects.toThrow(
        /names no A\/B variant/,
      );
      const other = await h.newAccount('Other');
      await expect(
        variantProfileKeys(h.deps, other.accountId, { ...ref, location: 'ab_test_offerTest_v-offer' }),
      ).rejects.toThrow(/does not exist in this account/);
    });

    it('counts a variant’s profiles with the spec’s rule 7 segment rule: populations, saved segments, with other conditions and exclude', async () => {
      await run(0);
      await run(3);
      const inVariant = (variantId: string) =>
        customers().then((all) => all.filter((c) => c.variants[0]?.variantId === variantId).map((c) => c.profileKey));
      const offered = await inVariant('v-offer');
      const control = await inVariant('v-control');
      expect(offered.length + control.length).toBe(3);
      expect(offered.length).toBeGreaterThan(0);
      // The spec's rule shape, journey and stage ids as integers.
      const variant = (location: string, extra: Record<string, unknown> = {}) => ({
        type: 'Value',
        exclude: false,
        leftValue: {
          journeyId: Number(ids.journeyId),
          journeyStageId: Number(ids.stage1),
          location,
          tense: 'intime',
        },
        operator: { type: 'IsNull', not: true },
        ...extra,
      });
      const OFFER = 'ab_test_offerTest_v-offer';
      const population = async (rule: unknown) => {
        const res = await h.call('POST', `/audiences/${parentId}/population`, { json: { rule } });
        const body = (await res.json()) as { population: number; message?: string };
        expect(res.status, body.message).toBe(200);
        return body.population;
      };
      expect(await population({ type: 'And', conditions: [variant(OFFER)] })).toBe(offered.length);
      expect(await population({ type: 'And', conditions: [variant('ab_test_offerTest_v-control')] })).toBe(
        control.length,
      );
      expect(await population({ type: 'And', conditions: [variant(OFFER, { exclude: true })] })).toBe(
        6 - offered.length,
      );
      const notVip = { type: 'Value', leftValue: { name: 'vip' }, operator: { type: 'Equal', rightValue: 0 } };
      expect(await population({ type: 'Or', conditions: [variant(OFFER), notVip] })).toBe(offered.length + 3);
      expect(await population({ type: 'And', conditions: [variant(OFFER), notVip] })).toBe(0);
      const sample = await json<{ profiles: Array<{ key: string }> }>(
        h.call('POST', `/audiences/${parentId}/sample`, {
          json: { rule: { type: 'And', conditions: [variant(OFFER)] } },
        }),
      );
      expect(sample.profiles.map((p) => p.key)).toEqual(offered);

      // A saved segment with the rule counts the same, and keeps counting as profiles are assigned.
      const saved = await json<{ id: string }>(
        h.call('POST', `/audiences/${parentId}/segments`, {
          json: { name: 'Got the offer', rule: { type: 'And', conditions: [variant(OFFER)] } },
        }),
      );
      const counted = await json<{ population: number }>(
        h.call('GET', `/audiences/${parentId}/segments/${saved.id}/population`),
      );
      expect(counted.population).toBe(offered.length);

      // Unknown journey, stage or variant: 400 naming which, in population counts and on save alike.
      const refused = async (leftValue: Record<string, unknown>, pattern: RegExp) => {
        const rule = {
          type: 'And',
          conditions: [{ ...variant(OFFER), leftValue: { ...variant(OFFER).leftValue, ...leftValue } }],
        };
        for (const [path, body] of [
          [`/audiences/${parentId}/population`, { rule }],
          [`/audiences/${parentId}/segments`, { name: 'Bad variant rule', rule }],
        ] as const) {
          const res = await h.call('POST', path, { json: body });
          const answer = (await res.json()) as { message: string; status_code: number };
          expect(res.status, path).toBe(400);
          expect(answer.status_code).toBe(400);
          expect(answer.message, path).toMatch(pattern);
        }
      };
      await refused({ journeyId: 999999 }, /names journey 999999, which does not exist in this account/);
      await refused({ journeyStageId: 999999 }, /names stage 999999, which is not a stage of journey/);
      await refused(
        { location: 'ab_test_offerTest_v-nope' },
        /location "ab_test_offerTest_v-nope" names no A\/B variant in stage .*ab_test_<A\/B test step id>_<variant id>/,
      );
      await refused({ tense: 'past' }, /tense "past" is not supported; use "intime"/);
      const wrongOperator = await h.call('POST', `/audiences/${parentId}/population`, {
        json: { rule: { type: 'And', conditions: [variant(OFFER, { operator: { type: 'Equal', rightValue: 1 } })] } },
      });
      expect(wrongOperator.status).toBe(400);
      expect(((await wrongOperator.json()) as { message: string }).message).toMatch(/IsNull", not: true/);
    });

    it('simulates a profile’s path and says why, changing nothing', async () => {
      const res = await json<{ data: Array<{ steps: Array<{ explanation: string }>; stoppedBecause: string }> }>(
        h.call('POST', `/entities/journeys/${ids.journeyId}/simulation`, { json: { profileKey: 'p1', days: 10 } }),
      );
      const lines = res.data[0]?.steps.map((s) => s.explanation) ?? [];
      expect(lines[0]).toMatch(/^Enters the journey at stage "Onboard"/);
      expect(lines.some((l) => l.startsWith('Decision point "VIP?": in segment'))).toBe(true);
      expect(res.data[0]?.stoppedBecause).toBe('until');
      const sample = await json<{ data: Array<{ profileKey: string }> }>(
        h.call('POST', `/entities/journeys/${ids.journeyId}/simulation`, { json: { sample: 2 } }),
      );
      expect(sample.data.map((p) => p.profileKey)).toEqual(['p1', 'p2']);
      const unknown = await h.call('POST', `/entities/journeys/${ids.journeyId}/simulation`, {
        json: { profileKey: 'nobody' },
      });
      expect(unknown.status).toBe(400);
      expect(await customers()).toEqual([]);
    });

    it('answers statistics for a chosen window and rejects a reversed one', async () => {
      await run(0);
      const empty = await json<{ data: { entered: number; window: { from: string } } }>(
        h.call('GET', `/entities/journeys/${ids.journeyId}/statistics?from=2026-12-01&to=2026-12-31`),
      );
      expect(empty.data.entered).toBe(0);
      expect(empty.data.window.from).toBe('2026-12-01T00:00:00.000Z');
      const reversed = await h.call(
        'GET',
        `/entities/journeys/${ids.journeyId}/statistics?from=2026-12-31&to=2026-12-01`,
      );
      expect(reversed.status).toBe(400);
    });
  });

  it('documents its routes and response shapes in the OpenAPI reference', async () => {
    await setUp();
    const doc = await json<{ paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>(
      h.call('GET', '/openapi.json', { key: null }),
    );
    for (const path of ['run', 'statistics', 'customers', 'simulation']) {
      expect(doc.paths[`/entities/journeys/{journeyId}/${path}`]).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['JourneyRun', 'JourneyStatistics', 'JourneyCustomers', 'JourneySimulation']),
    );
  });

  describe('re-entry', () => {
    const cycle = async () => {
      await run(0);
      await run(3);
      await run(20);
      expect((await positions()).p6).toBe('left:exit_after');
      await run(21);
    };

    it('keeps a profile out after it left when re-entry is off', async () => {
      await setUp(false);
      await cycle();
      expect((await positions()).p6).toBe('left:exit_after');
    });

    it('lets it back in at a later run when re-entry is on, with its A/B variant kept', async () => {
      await setUp(true);
      await run(0);
      await run(3);
      const variant = (await customers()).find((c) => c.profileKey === 'p1')?.variants[0]?.variantId;
      await run(20);
      await run(21);
      const positionsNow = await positions();
      expect(positionsNow.p6).toBe('Onboard/wait3');
      expect(positionsNow.p1).toBe('Onboard/wait3');
      // Still in the goal segment: p5 does not come back.
      expect(positionsNow.p5).toBe('left:goal');
      await run(24);
      expect((await customers()).find((c) => c.profileKey === 'p1')?.variants[0]?.variantId).toBe(variant);
      const assigned = (await loggedEventsOf(h.deps.storage.db)).filter(
        (e) => e.type === 'variant_assigned' && e.profileKey === 'p1',
      );
      expect(assigned.map((e) => e.kept)).toEqual([false, true]);
    });
  });
});
