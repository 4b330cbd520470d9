import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { decodeBatch, decodeRecord, recordBytes } from './decode';
import { encodeRecords } from './encode';
import { BulkFormatError } from './errors';
import { defaultPartLimits, type RecordLimits } from './limits';
import { type RecordBatch, RecordScanner } from './scanner';

const limits: RecordLimits = { ...defaultPartLimits };

/** Feeds the bytes in chunks of `size` and collects every record decoded. */
function scanInChunks(bytes: Uint8Array, size: number, l: RecordLimits = limits) {
  const scanner = new RecordScanner(l);
  const records: unknown[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const batch = scanner.push(bytes.subarray(at, at + size));
    records.push(...decodeBatch(batch));
  }
  scanner.end();
  return { records, count: scanner.records };
}

function failure(fn: () => unknown): BulkFormatError {
  try {
    fn();
  } catch (e) {
    if (e instanceof BulkFormatError) return e;
    throw e;
  }
  throw new Error('expected a BulkFormatError');
}

const rows = [
  { time: 1700000000, a: 1, s: 'x'.repeat(300), nested: { list: [1, 2, { deep: true }] } },
  { time: 1700000001, big: 2n ** 60n, f: 1.5, n: null, bin: new Uint8Array([1, 2, 3]) },
  {},
  { time: 1700000002, when: new Date(Date.UTC(2024, 0, 1)) },
];

describe('RecordScanner', () => {
  it('hands out plain byte arrays for Buffer chunks too, sharing their memory', () => {
    const bytes = Buffer.from(encodeRecords(rows));
    const scanner = new RecordScanner(limits);
    const whole = scanner.push(bytes);
    expect(Object.getPrototypeOf(whole.bytes)).toBe(Uint8Array.prototype);
    expect(whole.bytes.buffer).toBe(bytes.buffer);
    expect(decodeBatch(whole)).toHaveLength(rows.length);
    // A record cut between two Buffer chunks comes back whole, from the scanner's own array.
    const again = new RecordScanner(limits);
    const first = again.push(bytes.subarray(0, 10));
    const rest = again.push(bytes.subarray(10));
    expect(first.ends).toEqual([]);
    expect(Object.getPrototypeOf(rest.bytes)).toBe(Uint8Array.prototype);
    expect(decodeBatch(rest)).toHaveLength(rows.length);
  });

  it('finds the same records whatever the chunk size', () => {
    const bytes = encodeRecords(rows);
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const { records, count } = scanInChunks(bytes, size);
      expect(count).toBe(4);
      expect(records).toEqual([
        rows[0],
        { ...rows[1], bin: new Uint8Array([1, 2, 3]) },
        {},
        { time: 1700000002, when: new Date(Date.UTC(2024, 0, 1)) },
      ]);
    }
  });

  it('gives each record its own bytes', () => {
    const bytes = encodeRecords([{ a: 1 }, { b: 'two' }]);
    const batch: RecordBatch = new RecordScanner(limits).push(bytes);
    expect(batch.ends).toHaveLength(2);
    expect(new Packr({ useRecords: false }).unpack(recordBytes(batch, 1))).toEqual({ b: 'two' });
  });

  it('keeps integers beyond 2^53 exact', () => {
    const { records } = scanInChunks(encodeRecords([{ id: 9007199254740993n }]), 5);
    expect(records[0]).toEqual({ id: 9007199254740993n });
  });

  it('refuses a stream cut in the middle of a record', () => {
    const bytes = encodeRecords([{ a: 'hello' }]);
    const e = failure(() => scanInChunks(bytes.subarray(0, bytes.length - 2), 4));
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(/truncated/);
  });

  it('refuses a record that is not a map', () => {
    const packr = new Packr({ useRecords: false });
    const e = failure(() => scanInChunks(Buffer.concat([packr.pack({ a: 1 }), packr.pack([1, 2])]), 100));
    expect(e.message).toBe('Record 2: each record must be a msgpack map, but this one is an array.');
  });

  it('refuses keys that are not strings', () => {
    // fixmap of one entry whose key is the integer 1.
    const e = failure(() => scanInChunks(Uint8Array.from([0x81, 0x01, 0x02]), 10));
    expect(e.message).toMatch(/every key of a record must be a string, but one is an integer/);
  });

  it('refuses the unused byte 0xc1 and extension types other than timestamps', () => {
    expect(failure(() => scanInChunks(Uint8Array.from([0x81, 0xa1, 0x61, 0xc1]), 10)).code).toBe('corrupt');
    // {a: ext type 5 of one byte}
    const e = failure(() => scanInChunks(Uint8Array.from([0x81, 0xa1, 0x61, 0xd4, 0x05, 0x00]), 10));
    expect(e.message).toMatch(/extension type 5 is not supported/);
  });

  it('refuses a string longer than the limit from its header alone', () => {
    // str32 declaring 4 GiB - 1 bytes, with none of them sent.
    const e = failure(() =>
      scanInChunks(Uint8Array.from([0x81, 0xa1, 0x61, 0xdb, 0xff, 0xff, 0xff, 0xff]), 100, limits),
    );
    expect(e.code).toBe('limit');
    expect(e.message).toMatch(/string value of 4294967295 bytes is longer than the limit/);
  });

  it('refuses arrays, maps and nesting past their limits', () => {
    const small = { ...limits, maxArrayLength: 3, maxMapSize: 2, maxDepth: 3 };
    expect(failure(() => scanInChunks(encodeRecords([{ a: [1, 2, 3, 4] }]), 100, small)).message).toMatch(
      /array of 4 items is longer than the limit of 3/,
    );
    expect(failure(() => scanInChunks(encodeRecords([{ a: 1, b: 2, c: 3 }]), 100, small)).message).toMatch(
      /map of 3 entries has more than the limit of 2/,
    );
    expect(failure(() => scanInChunks(encodeRecords([{ a: [[[1]]] }]), 100, small)).message).toMatch(
      /nested deeper than the limit of 3 levels/,
    );
    expect(scanInChunks(encodeRecords([{ a: [[1]] }]), 100, small).count).toBe(1);
  });

  it('refuses a record larger than the limit even before it is complete', () => {
    const small = { ...limits, maxRecordBytes: 100 };
    const bytes = encodeRecords([{ a: 'y'.repeat(90), b: 'z'.repeat(90) }]);
    const scanner = new RecordScanner(small);
    const e = failure(() => scanner.push(bytes.subarray(0, 150)));
    expect(e.message).toMatch(/larger than the limit of 100 bytes/);
  });

  it('refuses a declared array length that the data cannot hold once the stream ends', () => {
    // array32 declaring 100 items with 1 present.
    const e = failure(() => scanInChunks(Uint8Array.from([0x81, 0xa1, 0x61, 0xdd, 0, 0, 0, 100, 0x01]), 3));
    expect(e.message).toMatch(/truncated/);
  });
});

describe('binary keys and values (td bulk_import:prepare_parts writes Ruby strings as msgpack bin)', () => {
  const bin = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return [0xc4, bytes.length, ...bytes];
  };
  // {bin "name": bin "Ada Lovelace", bin "time": 1700000000, bin "raw": bin [0, 255]}
  const record = new Uint8Array([
    0x83,
    ...bin('name'),
    ...bin('Ada Lovelace ✓'),
    ...bin('time'),
    0xce,
    0x65,
    0x53,
    0xf1,
    0x00,
    ...bin('raw'),
    0xc4,
    2,
    0,
    255,
  ]);

  it('reads binary keys and UTF-8 binary values as text, and keeps other binary as bytes', () => {
    for (const size of [1, 5, record.length]) {
      const { records } = scanInChunks(new Uint8Array([...record, ...encodeRecords([{ plain: 'x' }])]), size);
      expect(records).toEqual([
        { name: 'Ada Lovelace ✓', time: 1700000000, raw: new Uint8Array([0, 255]) },
        { plain: 'x' },
      ]);
    }
  });

  it('refuses a binary key that is not UTF-8', () => {
    const bad = new Uint8Array([0x81, 0xc4, 2, 0xff, 0xfe, 1]);
    const e = failure(() => scanInChunks(bad, bad.length));
    expect(e.code).toBe('corrupt');
    expect(e.message).toMatch(/key is binary data that is not UTF-8/);
  });

  it('decodeRecord reads one record the same way', () => {
    expect(decodeRecord(record)).toEqual({ name: 'Ada Lovelace ✓', time: 1700000000, raw: new Uint8Array([0, 255]) });
  });
});
