import { describe, expect, it } from 'vitest';
import type { PreparedRecord } from './plane';
import { packBatch, packRecords, unpackBatch, unpackRecords } from './recordPack';

const records: PreparedRecord[] = [
  {
    time: 1700000000,
    values: [
      ['path', '/'],
      ['n', 1],
    ],
  },
  { time: 1700000001, values: [] },
  {
    time: 1700000002,
    values: [
      ['n', 9007199254740993n],
      ['tags', ['a', 'b']],
      ['props', { k: 1, nested: { deep: null } }],
      ['raw', new Uint8Array([1, 2, 3])],
      ['path', null],
    ],
  },
  { time: -62135596800, values: [['only', 'x']] },
];

describe('packed records', () => {
  it('come back as the same records, after the trip a worker message takes', () => {
    const packed = structuredClone(packRecords(records));
    expect(unpackRecords(packed)).toEqual(records);
  });

  it('name each column once and keep the cells flat', () => {
    const packed = packRecords(records);
    expect(packed.columns).toEqual(['path', 'n', 'tags', 'props', 'raw', 'only']);
    expect(packed.cells).toHaveLength(8);
    expect(Array.from(packed.shape)).toEqual([2, 0, 1, 0, 5, 1, 2, 3, 4, 0, 1, 5]);
  });

  it('pack a table batch with its table and flags', () => {
    const batch = { table: 'events', records, createTable: true };
    expect(unpackBatch(structuredClone(packBatch(batch)))).toEqual(batch);
    expect(unpackRecords(packRecords([]))).toEqual([]);
  });
});
