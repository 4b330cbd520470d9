import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { buildWorld, send, violationsOf, type World } from './testing/world';

/** What a journey names outside itself: its parent segment and its folder must exist and match. */

let h: Harness;
let world: World;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterAll(() => h.close());

async function create(attributes: Record<string, unknown>, relationships?: unknown) {
  return send(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name: 'Rules', audienceId: world.parentSegmentId, ...attributes },
    ...(relationships ? { relationships } : {}),
  });
}

describe('what the journey refers to', () => {
  it('needs a parent segment of the account', async () => {
    expect(violationsOf(await create({ audienceId: null })).map((v) => v.code)).toEqual(['journey.audience_missing']);
    expect(violationsOf(await create({ audienceId: '987654' })).map((v) => [v.code, v.path.text])).toEqual([
      ['journey.audience_unknown', 'audienceId'],
    ]);
    const other = await h.newAccount('Other');
    const theirs = await buildWorld(h, other);
    expect(violationsOf(await create({ audienceId: theirs.parentSegmentId })).map((v) => v.code)).toEqual([
      'journey.audience_unknown',
    ]);
  });

  it('needs a folder of the same parent segment', async () => {
    const folder = (id: string) => ({ parentFolder: { data: { id, type: 'folder-segment' } } });
    const unknown = violationsOf(await create({}, folder('987654')));
    expect(unknown.map((v) => [v.code, v.path.text])).toEqual([
      ['journey.folder_unknown', 'relationships.parentFolder.data.id'],
    ]);
    const second = await buildWorld(h);
    const elsewhere = violationsOf(await create({}, folder(second.rootFolderId)));
    expect(elsewhere.map((v) => v.code)).toEqual(['journey.folder_other_parent_segment']);
  });

  it('refuses a segment of another parent segment of the same account, naming where it is used', async () => {
    const sibling = await buildWorld(h);
    const theirs = sibling.segments['301'] as string;
    const stage = {
      name: 'Welcome',
      entryCriteria: { name: 'Entry', segmentId: theirs },
      steps: {
        d: {
          type: 'DecisionPoint',
          branches: [
            { id: 'p1', name: 'Theirs', segmentId: theirs, next: 'e' },
            { id: 'p2', name: 'Ours', segmentId: world.segments['302'], next: 'e' },
          ],
        },
        e: { type: 'Merge', next: null },
      },
      rootStep: 'd',
    };
    const found = violationsOf(await create({ journeyStages: [stage] }));
    expect(found.map((v) => [v.code, v.path.text])).toEqual([
      ['segment.unknown', 'journeyStages[0].entryCriteria.segmentId'],
      ['segment.unknown', 'journeyStages[0].steps["d"].branches[0].segmentId'],
    ]);
  });

  it('answers malformed bodies with 400, never 500', async () => {
    for (const body of [
      '[1,2]',
      '{"type":"journey","attributes":7}',
      'not json',
      '{"attributes":{"journey_stages":"x"}}',
    ]) {
      const res = await h.call('POST', '/entities/journeys', { body, headers: { 'content-type': 'application/json' } });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { message: string }).message.length).toBeGreaterThan(10);
    }
  });
});
