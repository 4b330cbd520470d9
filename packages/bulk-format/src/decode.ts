import { Unpackr } from 'msgpackr';
import type { BulkRecord } from './encode';
import type { RecordBatch } from './scanner';

// Integers beyond 2^53 come back as BigInt rather than losing digits ('auto' is missing from the typings).
// Binary values are copied: a batch's bytes are reused once the scanner reads on.
const unpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: true,
  int64AsType: 'auto' as 'bigint',
  copyBuffers: true,
});

/** Decodes the records of a batch the scanner has checked. */
export function decodeBatch(batch: RecordBatch): BulkRecord[] {
  if (batch.ends.length === 0) return [];
  return unpackr.unpackMultiple(batch.bytes) as BulkRecord[];
}

/** Decodes one record's bytes. */
export function decodeRecord(bytes: Uint8Array): BulkRecord {
  return unpackr.unpack(bytes) as BulkRecord;
}

/** The bytes of record `i` of a batch. */
export function recordBytes(batch: RecordBatch, i: number): Uint8Array {
  return batch.bytes.subarray(i === 0 ? 0 : (batch.ends[i - 1] as number), batch.ends[i] as number);
}
