import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { ab, decision, end, merge, stage } from './testing/steps';
import { buildWorld, send, violationsOf, type World } from './testing/world';

/** The spec's limits on paths and variants, through the API (the package tests them on their own too). */

let h: Harness;
let world: World;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterAll(() => h.close());

const create = (steps: Record<string, unknown>, root: string) =>
  send(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: {
      name: 'Limits',
      audienceId: world.parentSegmentId,
      journeyStages: [stage(world.segments['301'] as string, root, steps)],
    },
  });

describe('limits', () => {
  it('accepts 6 decision paths and refuses 7', async () => {
    const paths = (n: number) =>
      Array.from({ length: n }, (_, i): [string, string, string] => [`p${i}`, world.segments['305'] as string, 'm']);
    const six = await create({ d: decision(...paths(6)), m: merge('e'), e: end() }, 'd');
    expect(six.status, JSON.stringify(six.body)).toBe(200);
    const seven = violationsOf(await create({ d: decision(...paths(7)), m: merge('e'), e: end() }, 'd'));
    expect(seven.map((v) => [v.code, v.path.text])).toEqual([
      ['decision.branch_count', 'journeyStages[0].steps["d"].branches'],
    ]);
    expect(seven[0]?.message).toMatch(/7 paths; use 2 to 6/);
  });

  it('accepts a control and 8 test variants and refuses 9 test variants', async () => {
    const variants = (n: number) =>
      Array.from({ length: n }, (_, i): [string, number, string] => [`v${i}`, i === 0 ? 100 : 0, 'm']);
    const eight = await create({ t: ab(...variants(9)), m: merge('e'), e: end() }, 't');
    expect(eight.status, JSON.stringify(eight.body)).toBe(200);
    const nine = violationsOf(await create({ t: ab(...variants(10)), m: merge('e'), e: end() }, 't'));
    expect(nine.map((v) => [v.code, v.path.text])).toEqual([
      ['ab.variant_count', 'journeyStages[0].steps["t"].variants'],
    ]);
    expect(nine[0]?.message).toMatch(/9 test variants besides the control; use 1 to 8/);
  });
});
