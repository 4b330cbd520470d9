import { Packr, Unpackr } from 'msgpackr';
import { decodeRecord, textual } from './decode';
import type { BulkRecord } from './encode';

/**
 * Reading a checked record's entries in place, and single values, for code that lays records out by column
 * without decoding them whole (the server's bulk import perform). Values decode exactly as `decodeBatch` decodes
 * them inside their record: the same decoder options, and for batches holding binary data the same reading of
 * text-like binary as strings. Call these only on bytes the RecordScanner has checked: lengths are trusted.
 */

const unpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: true,
  int64AsType: 'auto' as 'bigint',
  copyBuffers: true,
});
const mapUnpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: false,
  int64AsType: 'auto' as 'bigint',
  copyBuffers: true,
});

/**
 * What stands for "no value" in a run of values: msgpackr's encoding of undefined (fixext 1 of type 0), which a
 * part never holds (the scanner refuses every extension but timestamps), so it cannot be mistaken for data.
 */
export const ABSENT = new Uint8Array([0xd4, 0x00, 0x00]);

/** Encodes a value the way runs of values are written (undefined as ABSENT; a new copy each call). */
export function encodeValue(value: unknown): Uint8Array {
  return valuePackr.pack(value).slice();
}

const valuePackr = new Packr({ useRecords: false, variableMapSize: true });

/** Decodes one value, as `decodeBatch` would inside a record of a batch with (`binary`) or without binary data. */
export function decodeValue(bytes: Uint8Array, binary: boolean): unknown {
  return binary ? textual(mapUnpackr.unpack(bytes)) : unpackr.unpack(bytes);
}

/** Decodes a run of values (ABSENT reads as undefined), as `decodeValue` decodes each. */
export function decodeValues(bytes: Uint8Array, binary: boolean): unknown[] {
  if (bytes.length === 0) return [];
  return binary
    ? (mapUnpackr.unpackMultiple(bytes) as unknown[]).map(textual)
    : (unpackr.unpackMultiple(bytes) as unknown[]);
}

/** Decodes one whole record, as `decodeBatch` decodes it in a batch with (`binary`) or without binary data. */
export function decodeRecordIn(bytes: Uint8Array, binary: boolean): BulkRecord {
  return binary ? decodeRecord(bytes) : (unpackr.unpack(bytes) as BulkRecord);
}

/** A big-endian unsigned length of `n` bytes at `at`. */
function size(buf: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + (buf[at + i] as number);
  return v;
}

/** Where a map's entries start and how many it has; the item at `pos` must be a map. */
export function mapEntries(buf: Uint8Array, pos: number): { count: number; at: number } {
  const b = buf[pos] as number;
  if (b >= 0x80 && b <= 0x8f) return { count: b - 0x80, at: pos + 1 };
  return b === 0xde ? { count: size(buf, pos + 1, 2), at: pos + 3 } : { count: size(buf, pos + 1, 4), at: pos + 5 };
}

/** Where a string's or binary's bytes start and end; the item at `pos` must be one. */
export function textBytes(buf: Uint8Array, pos: number): { start: number; end: number; binary: boolean } {
  const b = buf[pos] as number;
  if (b >= 0xa0 && b <= 0xbf) return { start: pos + 1, end: pos + 1 + b - 0xa0, binary: false };
  const n = b === 0xd9 || b === 0xc4 ? 1 : b === 0xda || b === 0xc5 ? 2 : 4;
  const start = pos + 1 + n;
  return { start, end: start + size(buf, pos + 1, n), binary: b >= 0xc4 && b <= 0xc6 };
}

/** The offset just past the item at `pos` (with everything it holds). */
export function skipValue(buf: Uint8Array, pos: number): number {
  let items = 1;
  while (items > 0) {
    items--;
    const b = buf[pos] as number;
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) pos += 1;
    else if (b <= 0x8f) {
      items += (b - 0x80) * 2;
      pos += 1;
    } else if (b <= 0x9f) {
      items += b - 0x90;
      pos += 1;
    } else if (b <= 0xbf) pos += 1 + b - 0xa0;
    else if (b === 0xc4 || b === 0xd9) pos += 2 + size(buf, pos + 1, 1);
    else if (b === 0xc5 || b === 0xda) pos += 3 + size(buf, pos + 1, 2);
    else if (b === 0xc6 || b === 0xdb) pos += 5 + size(buf, pos + 1, 4);
    else if (b === 0xc7) pos += 3 + size(buf, pos + 1, 1);
    else if (b === 0xc8) pos += 4 + size(buf, pos + 1, 2);
    else if (b === 0xc9) pos += 6 + size(buf, pos + 1, 4);
    else if (b === 0xca) pos += 5;
    else if (b === 0xcb) pos += 9;
    else if (b >= 0xcc && b <= 0xd3) pos += 1 + 2 ** ((b - 0xcc) % 4);
    else if (b >= 0xd4 && b <= 0xd8) pos += 2 + 2 ** (b - 0xd4);
    else if (b === 0xdc || b === 0xdd) {
      const n = b === 0xdc ? 2 : 4;
      items += size(buf, pos + 1, n);
      pos += 1 + n;
    } else {
      const n = b === 0xde ? 2 : 4;
      items += size(buf, pos + 1, n) * 2;
      pos += 1 + n;
    }
  }
  return pos;
}
