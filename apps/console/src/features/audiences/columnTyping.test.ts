import { describe, expect, it } from 'vitest';
import { typeToggle } from './columnTyping';

describe('typeToggle', () => {
  it('lets a long number column become a timestamp and back', () => {
    expect(typeToggle('number', 'long')).toEqual({ allowed: true, reason: null });
    expect(typeToggle('timestamp', 'long')).toEqual({ allowed: true, reason: null });
  });

  it('refuses string data and says to convert it to Unix time', () => {
    const t = typeToggle('string', 'string');
    expect(t.allowed).toBe(false);
    expect(t.reason).toContain('Convert the column to Unix time');
  });

  it('refuses double columns, which cannot hold Unix time', () => {
    expect(typeToggle('number', 'double')).toMatchObject({ allowed: false });
  });

  it('allows the integer types the data plane has (long, declared int) and no others', () => {
    expect(typeToggle('number', 'int')).toEqual({ allowed: true, reason: null });
    expect(typeToggle('number', 'bigint')).toMatchObject({ allowed: false });
  });

  it('refuses one column of an all-columns behavior and says to select columns individually', () => {
    const t = typeToggle('number', 'long', true);
    expect(t.allowed).toBe(false);
    expect(t.reason).toContain('Select the columns individually');
  });
});
