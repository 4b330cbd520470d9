import { closeSync, openSync, readSync } from 'node:fs';
import { decodeValues } from '@svc/bulk-format';
import { Packr, Unpackr } from 'msgpackr';
import { z } from 'zod';
import { columnSummary, type RowBlock } from '../data';
import { parseStored } from '../platform/storedJson';

/**
 * The staged rows of a perform (decision 0027): each part's valid records laid out by column in blocks
 * (columnStager.ts), so commit decodes each column's values in one call and inserts, with no per-record
 * objects. A staged file is a run of blocks (`encodeBlock`).
 * The manifest lists the files in part order with the summary of their columns, and is written last: a
 * perform without one never finished.
 */

/** What a perform staged: its files in order and what their rows need of the table's schema. */
const manifest = z.object({
  format: z.literal(1),
  /** Staged files, relative to the perform's folder, in part order. */
  files: z.array(z.string()),
  columns: columnSummary,
  records: z.number(),
});
export type Manifest = z.infer<typeof manifest>;

/** A perform's `manifest.json`, read back by the commit. */
export const readManifest = (text: string): Manifest => parseStored(manifest, text, "the perform's manifest.json");

const header = new Packr({ useRecords: false });
const readHeader = new Unpackr({ useRecords: false });

/** The runs of values of a block's columns (columnStager.ts), as far as `length`. */
export interface ValueRun {
  bytes: Uint8Array;
  length: number;
}

/**
 * One block as it is staged: a 4-byte little-endian length of the rest, a 4-byte length of the header, the
 * header (msgpack `[columns, rows, binary, lengths of the runs]`), every row's `time` as a little-endian double,
 * then each column's run of values (msgpack values one after another, ABSENT where a row has none).
 */
export function encodeBlock(columns: string[], time: ArrayLike<number>, binary: boolean, runs: ValueRun[]): Uint8Array {
  const head = header.pack([columns, time.length, binary, runs.map((r) => r.length)]);
  const size = 4 + head.length + 8 * time.length + runs.reduce((n, r) => n + r.length, 0);
  const out = Buffer.allocUnsafe(4 + size);
  let at = out.writeUInt32LE(size, 0);
  at = out.writeUInt32LE(head.length, at);
  out.set(head, at);
  at += head.length;
  for (let r = 0; r < time.length; r++) at = out.writeDoubleLE(time[r] as number, at);
  for (const run of runs) {
    out.set(run.bytes.subarray(0, run.length), at);
    at += run.length;
  }
  return out;
}

/** A staged block back as rows by column, values decoded as the part decoder decoded them. */
function decodeBlock(body: Buffer, path: string): RowBlock {
  const headLength = body.readUInt32LE(0);
  const [columns, rows, binary, lengths] = readHeader.unpack(body.subarray(4, 4 + headLength)) as [
    string[],
    number,
    boolean,
    number[],
  ];
  let at = 4 + headLength;
  const time: number[] = new Array(rows);
  for (let r = 0; r < rows; r++, at += 8) time[r] = body.readDoubleLE(at);
  const values = lengths.map((length) => {
    // A plain byte array, not a Buffer: binary values then decode as they do from a part (Uint8Array).
    const run = decodeValues(new Uint8Array(body.buffer, body.byteOffset + at, length), binary);
    at += length;
    if (run.length !== rows)
      throw new Error(`The staged bulk import file ${path} is damaged: perform the session again.`);
    return run;
  });
  return { columns, time, values };
}

function readFully(fd: number, buf: Buffer, length: number, path: string): void {
  let at = 0;
  while (at < length) {
    const n = readSync(fd, buf, at, length - at, null);
    if (n === 0) throw new Error(`The staged bulk import file ${path} ends inside a block: perform the session again.`);
    at += n;
  }
}

/** The blocks of staged files in order, read synchronously (commit writes them in one transaction). */
export function* readBlocks(paths: string[]): Generator<RowBlock> {
  const head = Buffer.alloc(4);
  for (const path of paths) {
    const fd = openSync(path, 'r');
    try {
      for (;;) {
        const n = readSync(fd, head, 0, 4, null);
        if (n === 0) break;
        if (n < 4) readFully(fd, head.subarray(n), 4 - n, path);
        const length = head.readUInt32LE(0);
        const body = Buffer.allocUnsafe(length);
        readFully(fd, body, length, path);
        yield decodeBlock(body, path);
      }
    } finally {
      closeSync(fd);
    }
  }
}
