import { describe, expect, it } from 'vitest';
import { canonicalTimeZone } from './timeZone';

describe('canonicalTimeZone', () => {
  it('answers the canonical spelling of a known IANA name', () => {
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('Europe/Paris')).toBe('Europe/Paris');
  });

  it('answers null for unknown names, offsets, and anything that is not a name', () => {
    for (const bad of ['Mars/Olympus', '', ' UTC', '+09:00', 'Asia/Tokyo\n', '../etc/passwd', 'x'.repeat(300)]) {
      expect(canonicalTimeZone(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
