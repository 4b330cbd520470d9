import { describe, expect, it } from 'vitest';
import { runBlockedReason, runOutcomeText } from './RunNowButton';

describe('running a journey now', () => {
  it('is possible only for a launched journey that is not paused, and says why not', () => {
    expect(runBlockedReason(true, false)).toBeNull();
    expect(runBlockedReason(false, false)).toBe('Launch the journey before running it.');
    expect(runBlockedReason(true, true)).toMatch(/paused/);
  });
});

describe('the outcome of Run now', () => {
  const base = {
    runId: 1,
    journeyId: '1',
    at: '2026-11-22T09:00:00.000Z',
    status: 'success' as const,
    skipped: null,
    profiles: 310,
    looked: 310,
    changed: 12,
    events: 40,
    queued: 12,
    durationMs: 5,
  };
  it('says what was sent, what failed and what waits for its schedule', () => {
    expect(runOutcomeText({ ...base, deliveries: { delivered: 12, failed: 0, waiting: 0, error: null } })).toBe(
      '310 profiles looked at, 12 moved. 12 profiles sent to activations.',
    );
    expect(
      runOutcomeText({
        ...base,
        deliveries: { delivered: 0, failed: 1, waiting: 11, error: 'Webhooks must use HTTPS.' },
      }),
    ).toBe(
      '310 profiles looked at, 12 moved. 1 profile could not be sent (Webhooks must use HTTPS.); tried again in a minute or more. 11 profiles wait for their activation’s schedule.',
    );
  });
  it('says how many of the parent segment a run read when it read only those that may move', () => {
    const summary = {
      ...base,
      looked: 1,
      changed: 1,
      deliveries: { delivered: 0, failed: 0, waiting: 0, error: null },
    };
    expect(runOutcomeText(summary)).toBe('1 profile looked at of 310 in the parent segment, 1 moved.');
  });
});
