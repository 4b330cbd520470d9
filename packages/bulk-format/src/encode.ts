import { Packr } from 'msgpackr';

/** A record of a part: a map from column name to value. */
export type BulkRecord = Record<string, unknown>;

// Plain msgpack only: no msgpackr record extensions, and undefined written as nil, so any client reads it.
const packr = new Packr({ useRecords: false, encodeUndefinedAsNil: true, variableMapSize: true });

/** The concatenated msgpack maps of the records: a part before compression. */
export function encodeRecords(records: Iterable<BulkRecord>): Uint8Array {
  const packed: Uint8Array[] = [];
  let total = 0;
  for (const record of records) {
    // pack() may return a view of a buffer it reuses: copy before packing the next record.
    const bytes = packr.pack(record).slice();
    packed.push(bytes);
    total += bytes.length;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const bytes of packed) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/** Gzip with the platform's CompressionStream (browsers and Node alike). */
export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A bulk-import part: the gzip of the records' concatenated msgpack maps (wire-compat §2.5). */
export async function encodePart(records: Iterable<BulkRecord>): Promise<Uint8Array> {
  return gzip(encodeRecords(records));
}
