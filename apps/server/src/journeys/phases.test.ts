import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { decision, stage, wait } from './testing/steps';
import { buildWorld, send, violationsOf, type World } from './testing/world';

/**
 * The two phases of a journey body's check (README, "Errors"): first its shape, every problem at once;
 * then, once it reads, every rule at once. A body with a malformed field says the rules are still to come.
 */

let h: Harness;
let world: World;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
});
afterAll(() => h.close());

const body = (waitStep: unknown) => ({
  type: 'journey',
  attributes: {
    name: 'Phases',
    audienceId: world.parentSegmentId,
    journeyStages: [
      stage(world.segments['301'] as string, 'w', {
        w: wait('d', waitStep),
        d: decision(['only', world.segments['305'] as string, null]),
        x: { type: 'Teleport' },
      }),
    ],
  },
});

describe('checking a journey body', () => {
  it('answers every shape problem at once, says the rules have not run, and marks the phase', async () => {
    const answer = await send<{ message: string; details: { phase?: string } }>(
      h,
      'POST',
      '/entities/journeys',
      body({ days: 2 }),
    );
    expect(violationsOf(answer).map((v) => [v.code, v.path.text])).toEqual([
      ['shape.invalid', 'journeyStages[0].steps["w"].waitStep'],
      ['step.type_unknown', 'journeyStages[0].steps["x"].type'],
    ]);
    expect(answer.body.details.phase).toBe('shape');
    expect(answer.body.message).toMatch(/^The journey body does not read: 2 problems\. .*The journey rules run once/);
  });

  it('then answers every rule the corrected body breaks', async () => {
    const fixed = body(2);
    const steps = fixed.attributes.journeyStages[0]?.steps as Record<string, unknown>;
    delete steps.x;
    const answer = await send<{ details: { phase?: string } }>(h, 'POST', '/entities/journeys', fixed);
    expect(violationsOf(answer).map((v) => v.code)).toEqual(['decision.branch_count']);
    expect(answer.body.details.phase).toBeUndefined();
  });
});
