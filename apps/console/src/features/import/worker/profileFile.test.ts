import { describe, expect, it } from 'vitest';
import { badCount, fitShare, inferredType, mergeProfiles, numericOffer } from '../model/profile';
import type { ReadSettings } from '../model/types';
import { profileFile } from './profileFile';
import { csvWithBadNumbers } from './testFiles';

const csv: ReadSettings = { kind: 'csv', encoding: 'utf-8', delimiter: ',', header: true };
const jsonl: ReadSettings = { ...csv, kind: 'jsonl' };

async function profile(text: string, settings: ReadSettings) {
  const events: string[] = [];
  const result = await profileFile({ file: new File([text], 'f.csv'), settings }, (e) => events.push(e.type));
  return { result, events };
}

describe('profileFile: the whole file, not a sample', () => {
  it('finds a JSON Lines key that first appears in row 5,000, with how many rows have it', async () => {
    const lines = Array.from({ length: 6000 }, (_, i) =>
      JSON.stringify(i + 1 >= 5000 && (i + 1) % 2 === 0 ? { id: i + 1, extra_note: `n${i}` } : { id: i + 1 }),
    );
    const { result, events } = await profile(`${lines.join('\n')}\n{bad\n`, jsonl);
    expect(result.rows).toBe(6000);
    expect(result.unreadable).toBe(1);
    expect(result.fields.map((f) => [f.name, f.filled])).toEqual([
      ['id', 6000],
      ['extra_note', 501],
    ]);
    expect(result.fields[1]?.first).toEqual({ file: 'f.csv', row: 5000 });
    expect(events.at(-1)).toBe('done');
  });

  it('counts the share of cells that fit each type, and keeps the first cells that do not, with row numbers', async () => {
    const { result } = await profile(csvWithBadNumbers(1000), csv);
    const amount = result.fields.find((f) => f.name === 'amount');
    if (!amount) throw new Error('amount not found');
    expect(amount.filled).toBe(1000);
    expect(fitShare(amount, 'long')).toBe(0.99);
    expect(fitShare(amount, 'double')).toBe(0.99);
    expect(fitShare(amount, 'string')).toBe(1);
    expect(badCount(amount, 'long')).toBe(10);
    expect(amount.bad.long.map((b) => [b.row, b.value])).toEqual([
      [100, '"N/A"'],
      [200, '"N/A"'],
      [300, '"N/A"'],
      [400, '"N/A"'],
      [500, '"N/A"'],
    ]);
    // Not every cell is a number: string fits all, and long is offered for the 99 % that are.
    expect(inferredType(amount)).toBe('string');
    expect(numericOffer(amount)).toBe('long');
    const id = result.fields.find((f) => f.name === 'id');
    expect(id && inferredType(id)).toBe('long');
    // Codes with leading zeros convert to numbers but are written as text: string, and no offer.
    const code = result.fields.find((f) => f.name === 'code');
    expect(code && [inferredType(code), numericOffer(code), fitShare(code, 'long')]).toEqual(['string', null, 1]);
  });

  it('merges the profiles of several files by key', async () => {
    const a = (await profile('x,y\n1,a\n', csv)).result;
    const b = (await profile('{"y":"b","z":2.5}\n', jsonl)).result;
    const merged = mergeProfiles([a, b]);
    expect(merged.rows).toBe(2);
    expect(merged.fields.map((f) => [f.name, f.filled, inferredType(f)])).toEqual([
      ['x', 1, 'long'],
      ['y', 2, 'string'],
      ['z', 1, 'double'],
    ]);
  });
});
