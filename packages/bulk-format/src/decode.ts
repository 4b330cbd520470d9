import { Unpackr } from 'msgpackr';
import type { BulkRecord } from './encode';
import { BulkFormatError } from './errors';
import type { RecordBatch } from './scanner';

// Integers beyond 2^53 come back as BigInt rather than losing digits ('auto' is missing from the typings).
// Binary values are copied: a batch's bytes are reused once the scanner reads on.
const unpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: true,
  int64AsType: 'auto' as 'bigint',
  copyBuffers: true,
});

/** For records holding bin data: maps as Map, so binary keys survive decoding until `textual` reads them. */
const mapUnpackr = new Unpackr({
  useRecords: false,
  mapsAsObjects: false,
  int64AsType: 'auto' as 'bigint',
  copyBuffers: true,
});

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** C0 control characters (and DEL) other than tab, line feed and carriage return: bytes with them stay binary. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

/** Bytes as text when they are valid UTF-8 without control characters (Ruby writes strings as bin), else null. */
function asText(bytes: Uint8Array): string | null {
  try {
    const text = utf8.decode(bytes);
    return hasControl(text) ? null : text;
  } catch {
    return null;
  }
}

function keyText(key: unknown): string {
  if (typeof key === 'string') return key;
  if (key instanceof Uint8Array) {
    try {
      return utf8.decode(key);
    } catch {
      throw new BulkFormatError('corrupt', 'A record key is binary data that is not UTF-8 text: send keys as strings.');
    }
  }
  return String(key);
}

/**
 * A value decoded with maps as Map, with binary keys and text-like binary values read as UTF-8 strings
 * (td `bulk_import:prepare_parts` writes both as msgpack bin). Binary that is not text stays bytes.
 */
export function textual(value: unknown): unknown {
  if (value instanceof Uint8Array) return asText(value) ?? value;
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[keyText(k)] = textual(v);
    return out;
  }
  if (Array.isArray(value)) return value.map(textual);
  return value;
}

/** Decodes the records of a batch the scanner has checked. */
export function decodeBatch(batch: RecordBatch): BulkRecord[] {
  if (batch.ends.length === 0) return [];
  if (batch.binary === false) return unpackr.unpackMultiple(batch.bytes) as BulkRecord[];
  return (mapUnpackr.unpackMultiple(batch.bytes) as unknown[]).map((r) => textual(r) as BulkRecord);
}

/** Decodes one record's bytes. */
export function decodeRecord(bytes: Uint8Array): BulkRecord {
  return textual(mapUnpackr.unpack(bytes)) as BulkRecord;
}

/** The bytes of record `i` of a batch. */
export function recordBytes(batch: RecordBatch, i: number): Uint8Array {
  return batch.bytes.subarray(i === 0 ? 0 : (batch.ends[i - 1] as number), batch.ends[i] as number);
}
