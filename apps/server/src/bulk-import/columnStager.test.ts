import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeBatch, defaultPartLimits, encodeRecords, type RecordBatch, RecordScanner } from '@svc/bulk-format';
import { Packr } from 'msgpackr';
import { afterAll, describe, expect, it } from 'vitest';
import { type PreparedRecord, type SchemaEntry, schemaGrowth, summaryGrowth } from '../data';
import { ColumnStager } from './columnStager';
import { RecordRules } from './records';
import { readBlocks } from './staged';
import { awkwardRecords, tooWide } from './testing/recordCases';

const dir = mkdtempSync(join(tmpdir(), 'svc-stager-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const batchOf = (bytes: Uint8Array): RecordBatch => {
  const scanner = new RecordScanner(defaultPartLimits);
  const batch = scanner.push(bytes);
  scanner.end();
  return batch;
};

/** A map with keys in this order, duplicates and binary keys included, as a client could write it. */
const packr = new Packr({ useRecords: false, variableMapSize: true });
const rawMap = (entries: [unknown, unknown][]) => packr.pack(new Map(entries)).slice();
// Plain byte arrays, as a part's batches mostly are: binary values decode as Uint8Array from them.
const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));

/** What the stager staged and refused, read back from the staged file as commit reads it. */
function stage(batches: RecordBatch[]) {
  const stager = new ColumnStager();
  const refused: Record<string, unknown>[] = [];
  for (const batch of batches) refused.push(...stager.add(batch));
  stager.end();
  const file = join(dir, `${Math.random()}.rows`);
  writeFileSync(file, Buffer.concat(stager.ready()));
  const rows: Record<string, unknown>[] = [];
  for (const block of readBlocks([file])) {
    block.time.forEach((time, r) => {
      const row: Record<string, unknown> = { time };
      block.columns.forEach((column, c) => {
        const v = block.values[c]?.[r];
        if (v !== undefined) row[column] = v;
      });
      rows.push(row);
    });
  }
  return { rows, refused, summary: stager.summary() };
}

/** What decoding each batch whole and applying the record rules gives (the path before decision 0027). */
function reference(batches: RecordBatch[]) {
  const rules = new RecordRules();
  const prepared: PreparedRecord[] = [];
  const refused: Record<string, unknown>[] = [];
  for (const batch of batches) {
    for (const record of decodeBatch(batch)) {
      const p = rules.prepare(record);
      if (p) prepared.push(p);
      else refused.push(record);
    }
  }
  const rows = prepared.map((p) => ({ time: p.time, ...Object.fromEntries(p.values) }));
  return { rows, refused, prepared };
}

const SCHEMAS: SchemaEntry[][] = [
  [],
  [
    ['n', 'long'],
    ['amount', 'int'],
    ['user', 'string'],
    ['tags', 'array<string>'],
  ],
];

function expectSame(batches: RecordBatch[]) {
  const got = stage(batches);
  const want = reference(batches);
  expect(got.rows).toStrictEqual(want.rows);
  expect(got.refused).toStrictEqual(want.refused);
  for (const schema of SCHEMAS) {
    expect(summaryGrowth(schema, got.summary)).toEqual(schemaGrowth(schema, want.prepared));
  }
  return got;
}

const records: Record<string, unknown>[] = [
  { time: 1700000000, user: 'ann', n: 1 },
  { time: 1700000001, user: 'bob', n: 2.5, amount: 3 },
  { time: 1700000002, n: null, amount: 7.25, extra: 'x' },
  ...awkwardRecords,
  { time: -5, user: 'negative time' },
  { time: 3000000000, user: 'past 32 bits' },
  { time: 1, café: 'non-ASCII key', user: 'zoë' },
  { time: 1, user: 'ünïcödé value', n: 9007199254740993n, big: 2n ** 63n },
  { time: 1, nested: { a: [1, 'two', { b: null }] }, tags: ['x', 'y'], flag: true, nan: Number.NaN, inf: -Infinity },
  { time: 1, when: new Date(1700000000123), bytes: new Uint8Array([0, 1, 2, 255]), f: 0.1, z: -0 },
  { time: 1, tags: [1, 2], amount: 1e300, n: -3 },
  { time: 1 },
  {},
  tooWide,
];

describe('ColumnStager', () => {
  it('stages and refuses exactly what decoding the records and the record rules do', () => {
    expectSame([batchOf(encodeRecords(records))]);
  });

  it('reads a repeated key as the record decoder does (the last value wins), wherever it comes', () => {
    const bytes = concat([
      rawMap([
        ['time', 5],
        ['a', 1],
        ['a', 2],
      ]),
      rawMap([
        ['time', 5],
        ['time', 6],
        ['a', 3],
      ]),
      rawMap([
        ['a', 'x'],
        ['time', 7],
        ['b', null],
      ]),
    ]);
    const { rows } = expectSame([batchOf(bytes)]);
    expect(rows).toEqual([
      { time: 5, a: 2 },
      { time: 6, a: 3 },
      { time: 7, a: 'x', b: null },
    ]);
  });

  it('reads binary keys and values as text where they are text, as td bulk_import:prepare_parts writes them', () => {
    const bin = (s: string) => Buffer.from(s);
    const bytes = concat([
      rawMap([
        [bin('time'), 1700000000],
        [bin('user'), bin('ann')],
        [bin('raw'), Buffer.from([0, 1, 2])],
      ]),
      rawMap([
        [bin('time'), 1700000001],
        [bin('user'), bin('zoë')],
        [bin('nested'), new Map([[bin('k'), bin('v')]])],
      ]),
      rawMap([
        [bin('time'), bin('1700000002')],
        [bin('user'), bin('text time')],
      ]),
    ]);
    const batch = batchOf(bytes);
    expect(batch.binary).toBe(true);
    const plain = batchOf(encodeRecords([{ time: 9, user: 'plain', raw: 'text' }]));
    const { rows } = expectSame([plain, batch, plain]);
    expect(rows[1]).toEqual({ time: 1700000000, user: 'ann', raw: new Uint8Array([0, 1, 2]) });
    expect(rows[2]).toEqual({ time: 1700000001, user: 'zoë', nested: { k: 'v' } });
  });

  it('keeps many rows of changing shapes exact across blocks', () => {
    const keys = ['user', 'action', 'amount', 'count', 'page', 'ref', 'Mixed-Case', 'flag'];
    const many = Array.from({ length: 10_000 }, (_, i) => {
      const record: Record<string, unknown> = { time: 1_700_000_000 + i };
      for (const [k, key] of keys.entries()) {
        if ((i * (k + 3)) % 7 === 0) continue;
        record[key] =
          k % 4 === 0 ? `v${i % 13}` : k % 4 === 1 ? i * 0.5 : k % 4 === 2 ? (i % 5 === 0 ? null : i) : i % 2 === 0;
      }
      return record;
    });
    // Batches of a few hundred records, as the scanner hands them out.
    const batches: RecordBatch[] = [];
    for (let at = 0; at < many.length; at += 700) batches.push(batchOf(encodeRecords(many.slice(at, at + 700))));
    const { rows } = expectSame(batches);
    expect(rows).toHaveLength(10_000);
  });
});
