import { describe, expect, it } from 'vitest';
import { readIsoDate } from './isoDate';

describe('readIsoDate', () => {
  it('takes a calendar day, and a day with a time where times are asked for', () => {
    expect(readIsoDate(' 2026-03-31 ', false)).toEqual({ ok: true, value: '2026-03-31' });
    expect(readIsoDate('2026-03-31', true)).toEqual({ ok: true, value: '2026-03-31 00:00' });
    expect(readIsoDate('2026-03-31T14:30', true)).toEqual({ ok: true, value: '2026-03-31 14:30' });
    expect(readIsoDate('2024-02-29', false)).toEqual({ ok: true, value: '2024-02-29' });
  });

  it('refuses other spellings, days that do not exist and impossible times, saying how to write it', () => {
    expect(readIsoDate('03/31/2026', false)).toEqual({
      ok: false,
      message: 'Write the date as YYYY-MM-DD, e.g. 2026-03-31.',
    });
    expect(readIsoDate('2026-03-31 14:30', false)).toMatchObject({ ok: false });
    expect(readIsoDate('2026-02-30', false)).toEqual({
      ok: false,
      message: 'There is no 2026-02-30. Write the date as YYYY-MM-DD, e.g. 2026-03-31.',
    });
    expect(readIsoDate('2026-03-31 25:00', true)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^25:00 is not a time of day\./),
    });
    expect(readIsoDate('', true)).toMatchObject({ ok: false });
  });
});
