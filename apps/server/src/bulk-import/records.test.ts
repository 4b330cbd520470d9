import { describe, expect, it } from 'vitest';
import { prepareRecord, tableLimits } from '../data/tableStore';
import { RecordRules } from './records';

const tooWide = Object.fromEntries([
  ['time', 1],
  ...Array.from({ length: tableLimits.maxColumns + 1 }, (_, i) => [`c${i}`, i]),
]);

const records: Record<string, unknown>[] = [
  { time: 1700000000, user: 'ann', n: 1 },
  { time: 1700000000n, user: 'big int time' },
  { user: 'no time' },
  { time: null, user: 'null time' },
  { time: '1700000000', user: 'text time' },
  { time: 1.5, user: 'fraction' },
  { time: 1e20, user: 'out of range' },
  { time: new Date(0), user: 'date' },
  { time: 1, userId: 'mapped key' },
  { time: 1, 'page-url': 'mapped key' },
  { time: 1, 'a-b': 1, a_b: 2 },
  { time: 1, rowid: 1 },
  { time: 1, '': 'empty key' },
  { time: 1, ['k'.repeat(200)]: 'long key' },
  { time: 1 },
  tooWide,
];

function expected(record: Record<string, unknown>) {
  try {
    return prepareRecord(record);
  } catch {
    return null;
  }
}

describe('RecordRules', () => {
  it('prepares exactly what the table store prepares, and refuses what it refuses', async () => {
    const rules = new RecordRules();
    // Twice, so the second pass runs on the cached columns.
    for (let pass = 0; pass < 2; pass++) {
      for (const record of records) {
        const want = expected(record);
        expect(rules.prepare(record), JSON.stringify(Object.keys(record).slice(0, 3))).toEqual(want);
      }
    }
  });

  it('knows a sample of both outcomes, so the comparison above is not vacuous', async () => {
    const outcomes = records.map((r) => expected(r) !== null);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(3);
    expect(outcomes.filter((o) => !o).length).toBeGreaterThan(5);
  });
});
