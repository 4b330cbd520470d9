import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../packages/journey/src/testing/prng';
import { createHarness, type Harness } from '../testing/harness';
import { membershipInputs, segmentProfileKeys } from './index';
import { createParentSegment, importRows, type Json, nowSeconds, ok } from './testing/audiences';

/**
 * membershipInputs (decision 0046): two equal keys mean equal members, whatever happened in between, so a
 * journey run may keep the memberships it evaluated last. Checked over a random (seeded) schedule of new
 * customer data, rebuilds, rule edits (of a segment read directly and of one included by a `Segment`
 * condition), saves that change nothing, and time passing; and the key is null for what moves with time.
 */

const PLANS = ['free', 'pro', 'team'];
const KEYS = ['a', 'b', 'c', 'd', 'e', 'f'];
const plan = (value: string) => ({
  type: 'And',
  conditions: [{ type: 'Value', leftValue: { name: 'plan' }, operator: { type: 'Equal', rightValue: value } }],
});
const score = (min: number) => ({
  type: 'And',
  conditions: [{ type: 'Value', leftValue: { name: 'score' }, operator: { type: 'GreaterEqual', rightValue: min } }],
});

describe('membership inputs', () => {
  let h: Harness;
  let parentId: string;
  let accountId: number;
  const seg: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness();
    accountId = h.admin.accountId;
    const t = nowSeconds(h);
    await importRows(
      h,
      'crm',
      'people',
      KEYS.map((id, i) => ({ id, plan: PLANS[i % 3], score: i, seen: t - i * 86_400, time: t })),
    );
    const record = await createParentSegment(h, {
      name: 'People',
      master: { parentDatabaseName: 'crm', parentTableName: 'people', parentKey: 'id' },
      attributes: [
        { name: 'plan', parentColumn: 'plan' },
        { name: 'score', parentColumn: 'score', type: 'number' },
        { name: 'seen', parentColumn: 'seen', type: 'timestamp' },
      ],
    });
    parentId = String(record.id);
    const make = async (name: string, rule: unknown) =>
      String(
        (await ok<{ id: string }>(h.call('POST', `/audiences/${parentId}/segments`, { json: { name, rule } }))).id,
      );
    seg.pro = await make('Pro', plan('pro'));
    seg.high = await make('High', score(3));
    seg.either = await make('Pro or high', {
      type: 'Or',
      conditions: [
        { type: 'Segment', segmentId: seg.pro },
        { type: 'Segment', segmentId: seg.high },
      ],
    });
    seg.recent = await make('Seen this week', {
      type: 'And',
      conditions: [
        { type: 'Value', leftValue: { name: 'seen' }, operator: { type: 'TimeWithinPast', value: 7, unit: 'day' } },
      ],
    });
  });
  afterAll(async () => {
    await h.close();
  });

  const inputs = (ids: string[]) => membershipInputs(h.deps, accountId, parentId, ids, h.clock.now());
  const members = async (id: string) =>
    (await segmentProfileKeys(h.deps, accountId, parentId, id, h.clock.now())).sort();
  const edit = (id: string, name: string, rule: Json) =>
    ok(h.call('PUT', `/audiences/${parentId}/segments/${id}`, { json: { name, rule } }));
  const rebuild = async () => {
    const built = await ok<{ buildJobId: string }>(h.call('POST', `/audiences/${parentId}/run`));
    expect(await h.app.services.jobs.whenSettled(Number(built.buildJobId))).toBe('success');
  };

  it('is null for a rule with a time filter, a segment that does not exist, or another parent segment', async () => {
    expect(await inputs([seg.recent as string])).toBeNull();
    expect(await inputs([seg.pro as string, seg.recent as string])).toBeNull();
    expect(await inputs(['999999'])).toBeNull();
    expect(await membershipInputs(h.deps, accountId, '999999', [], h.clock.now())).toBeNull();
    expect(await inputs([seg.pro as string])).toEqual(expect.any(String));
  });

  it('is the same only while the members are the same, over a random schedule of changes', async () => {
    const { pick, int } = seededRandom(46);
    const read = [seg.either as string, seg.pro as string];
    let before = {
      key: await inputs(read),
      either: await members(seg.either as string),
      pro: await members(seg.pro as string),
    };
    const seen = { same: 0, changed: 0, movedWithoutRebuild: 0 };
    let pendingData = false;
    for (let step = 0; step < 30; step++) {
      const action = pick(['data', 'rebuild', 'editPro', 'editHigh', 'resave', 'time'] as const);
      if (action === 'data') {
        h.clock.set(h.clock.now().getTime() + 1000);
        const id = pick(KEYS);
        await importRows(h, 'crm', 'people', [
          { id, plan: pick(PLANS), score: int(6), seen: nowSeconds(h), time: nowSeconds(h) },
        ]);
        pendingData = true;
      } else if (action === 'rebuild') {
        await rebuild();
        pendingData = false;
      } else if (action === 'editPro') await edit(seg.pro as string, 'Pro', plan(pick(PLANS)));
      else if (action === 'editHigh') await edit(seg.high as string, 'High', score(int(6)));
      else if (action === 'resave')
        await edit(
          seg.either as string,
          'Pro or high',
          JSON.parse(
            JSON.stringify({
              type: 'Or',
              conditions: [
                { type: 'Segment', segmentId: seg.pro },
                { type: 'Segment', segmentId: seg.high },
              ],
            }),
          ),
        );
      else h.clock.set(h.clock.now().getTime() + 86_400_000);
      const now = {
        key: await inputs(read),
        either: await members(seg.either as string),
        pro: await members(seg.pro as string),
      };
      expect(now.key).toEqual(expect.any(String));
      if (now.key === before.key) {
        seen.same++;
        expect({ either: now.either, pro: now.pro }).toEqual({ either: before.either, pro: before.pro });
        if (pendingData) seen.movedWithoutRebuild++;
      } else seen.changed++;
      before = now;
    }
    // The schedule reached both cases, and new data waited for a rebuild without changing the key.
    expect(seen.same).toBeGreaterThan(3);
    expect(seen.changed).toBeGreaterThan(3);
    expect(seen.movedWithoutRebuild).toBeGreaterThan(0);
  });
});
