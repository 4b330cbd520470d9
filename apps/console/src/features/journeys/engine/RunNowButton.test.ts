import { describe, expect, it } from 'vitest';
import { runBlockedReason } from './RunNowButton';

describe('running a journey now', () => {
  it('is possible only for a launched journey that is not paused, and says why not', () => {
    expect(runBlockedReason(true, false)).toBeNull();
    expect(runBlockedReason(false, false)).toBe('Launch the journey before running it.');
    expect(runBlockedReason(true, true)).toMatch(/paused/);
  });
});
