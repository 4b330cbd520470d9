import { describe, expect, it } from 'vitest';
import { prepareRecord } from '../data';
import { RecordRules } from './records';
import { awkwardRecords, tooWide } from './testing/recordCases';

const records: Record<string, unknown>[] = [
  { time: 1700000000, user: 'ann', n: 1 },
  ...awkwardRecords,
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
