import { describe, expect, it } from 'vitest';
import { simulateProfile } from './simulate';
import { SEG, scenarioJourney } from './testing/scenario';
import { day, World } from './testing/world';

const member =
  (segments: Record<string, string[]>) =>
  (segmentId: string, key: string): boolean =>
    segments[segmentId]?.includes(key) ?? false;

describe('simulation', () => {
  it('shows the path a VIP would take and why, without changing anything', () => {
    const journey = scenarioJourney({ split: [0, 100] });
    const result = simulateProfile({
      journeyId: 'j1',
      journey,
      profile: { key: 'p1', columns: { customer_id: 'C-1' } },
      from: day(0),
      until: day(10),
      isMember: member({ [SEG.entry]: ['p1'], [SEG.vip]: ['p1'] }),
    });
    expect(result.steps.map((s) => s.event.type)).toEqual([
      'journey_entered',
      'stage_entered',
      'step_entered',
      'step_entered',
      'branch_taken',
      'step_entered',
      'variant_assigned',
      'step_entered',
      'activation_queued',
      'step_entered',
      'step_entered',
    ]);
    const text = result.steps.map((s) => s.explanation);
    expect(text[0]).toBe('Enters the journey at stage "Onboard": in its entry segment seg-entry.');
    expect(text[2]).toBe(
      'Waits 3 days at Wait "Three days" until 2026-01-04T00:00:00.000Z (paused time does not count).',
    );
    expect(text[4]).toBe('Decision point "VIP?": in segment seg-vip, the first matching path, so follows "VIP".');
    expect(text[6]).toMatch(/^A\/B test "Offer": bucket \d+ of 10,000 falls in variant "Offer" \(100 %\)\.$/);
    expect(text[8]).toBe('Activation "Offer mail": queued for the next delivery of activation act-offer.');
    expect(result.steps[4]?.at).toBe(day(3));
    expect(result.state?.stepId).toBe('end1');
    expect(result.stoppedBecause).toBe('until');
  });

  it('runs up to the exitAfter limit and reports the exit', () => {
    const result = simulateProfile({
      journeyId: 'j1',
      journey: scenarioJourney({ state: 'draft' }),
      profile: { key: 'p9' },
      from: day(0),
      until: day(40),
      isMember: member({ [SEG.entry]: ['p9'] }),
    });
    const last = result.steps.slice(-3).map((s) => s.explanation);
    expect(last).toEqual([
      'Exit criterion "Too long" matches: 20 days in stage "Onboard" have passed.',
      'Leaves stage "Onboard": its time in the stage ran out.',
      'Leaves the journey: its time in the stage ran out.',
    ]);
    expect(result.steps.at(-1)?.at).toBe(day(20));
    expect(result.stoppedBecause).toBe('left');
  });

  it('says when the profile would not enter', () => {
    const result = simulateProfile({
      journeyId: 'j1',
      journey: scenarioJourney(),
      profile: { key: 'nobody' },
      from: day(0),
      until: day(5),
      isMember: () => false,
    });
    expect(result).toMatchObject({ steps: [], state: null, stoppedBecause: 'no_entry' });
  });

  it('continues from a persisted state and treats an open pause as ending now', () => {
    const w = new World(scenarioJourney());
    w.addProfiles(['p1']);
    w.join(SEG.entry, 'p1');
    w.run(day(0));
    w.pause(day(1));
    const state = w.states.get('p1');
    const snapshot = JSON.parse(JSON.stringify(state));
    const result = simulateProfile({
      journeyId: 'j1',
      journey: w.journey,
      profile: { key: 'p1' },
      state,
      from: day(4),
      until: day(10),
      pauses: w.pauses,
      isMember: (s, k) => w.segments.get(s)?.has(k) ?? false,
    });
    // One day waited before the pause, three days of pause, two more days after "resuming" at day 4.
    expect(result.steps[0]?.at).toBe(day(6));
    expect(result.steps[0]?.event.type).toBe('step_entered');
    expect(w.states.get('p1')).toEqual(snapshot);
  });
});
