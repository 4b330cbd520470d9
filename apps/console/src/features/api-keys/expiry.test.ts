import { describe, expect, it } from 'vitest';
import { expiryTime } from './expiry';

describe('expiryTime', () => {
  const now = new Date('2026-11-22T09:00:00.000Z');

  it('counts days from now, or gives none', () => {
    expect(expiryTime('never', '', now)).toBeNull();
    expect(expiryTime('30', '', now)).toBe('2026-12-22T09:00:00.000Z');
    expect(expiryTime('365', '', now)).toBe('2027-11-22T09:00:00.000Z');
  });

  it('ends a chosen date at its last second, and waits for a whole date', () => {
    expect(expiryTime('date', '2027-01-31', now)).toBe('2027-01-31T23:59:59.000Z');
    expect(expiryTime('date', '', now)).toBeUndefined();
    expect(expiryTime('date', '2027-1-3', now)).toBeUndefined();
  });
});
