import { describe, expect, it } from 'vitest';
import { checkedType } from './definition';

describe('column types that may become timestamps', () => {
  it('allows long and declared int columns (the integer types the data plane has)', () => {
    expect(checkedType('timestamp', 'long', 'x', '"c"')).toBe('timestamp');
    expect(checkedType('timestamp', 'int', 'x', '"c"')).toBe('timestamp');
  });

  it('refuses every other type, naming it and saying to convert to Unix time', () => {
    for (const type of ['double', 'float', 'boolean', 'string', 'bigint']) {
      expect(() => checkedType('timestamp', type, 'The attribute "a"', '"c"')).toThrow(
        `its column "c" holds ${type} values`,
      );
    }
  });
});
