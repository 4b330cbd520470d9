import { describe, expect, it } from 'vitest';
import { convertValue, inferColumnType, typeOfValue } from './infer';

describe('inferColumnType', () => {
  it('finds long, double and string columns, ignoring empty cells', () => {
    expect(inferColumnType(['1', '-20', '', '300'])).toBe('long');
    expect(inferColumnType(['1', '2.5', '1e3'])).toBe('double');
    expect(inferColumnType(['1', 'two'])).toBe('string');
    expect(inferColumnType([1, 2.25, null])).toBe('double');
    expect(inferColumnType([])).toBe('string');
    expect(inferColumnType(['', null])).toBe('string');
  });

  it('keeps codes with leading zeros and huge numbers as text or double', () => {
    expect(inferColumnType(['007', '012'])).toBe('string');
    expect(typeOfValue('0')).toBe('long');
    expect(typeOfValue('12345678901234567890')).toBe('double');
    expect(typeOfValue(2 ** 60)).toBe('double');
    expect(typeOfValue({ a: 1 })).toBe('string');
    expect(typeOfValue(true)).toBe('string');
  });
});

describe('convertValue', () => {
  it('converts to each type, empty values to null', () => {
    expect(convertValue(' 42 ', 'long')).toEqual({ ok: true, value: 42 });
    expect(convertValue('4.5', 'double')).toEqual({ ok: true, value: 4.5 });
    expect(convertValue(7, 'string')).toEqual({ ok: true, value: '7' });
    expect(convertValue({ a: [1] }, 'string')).toEqual({ ok: true, value: '{"a":[1]}' });
    expect(convertValue('', 'long')).toEqual({ ok: true, value: null });
    expect(convertValue(null, 'string')).toEqual({ ok: true, value: null });
  });

  it('says why a value does not fit its type', () => {
    expect(convertValue('4.5', 'long')).toEqual({ ok: false, reason: '"4.5" is not a whole number' });
    expect(convertValue('abc', 'double')).toEqual({ ok: false, reason: '"abc" is not a number' });
    expect(convertValue(true, 'long')).toEqual({ ok: false, reason: '"true" is not a whole number' });
  });
});
