import {
  ABSENT,
  decodeRecordIn,
  decodeValue,
  encodeValue,
  mapEntries,
  type RecordBatch,
  skipValue,
  textBytes,
} from '@svc/bulk-format';
import { type ColumnSummary, inferType, tableLimits } from '../data';
import { RecordRules } from './records';
import { encodeBlock } from './staged';

/**
 * Lays the records of a part out by column for the commit (decision 0027), at the level of their msgpack bytes:
 * a record's values are copied, still encoded, into one run of values per column, so nothing is decoded into
 * objects and nothing encoded again. Only the keys (compared with the previous record's, which rows of one
 * source repeat), `time`, the first value of each column (its type) and floats (a fraction widens a
 * whole-number column) are read. A record this path cannot take as it is (keys to map, a repeated key,
 * non-ASCII keys, no valid `time`) is decoded and goes through the record rules, staged from its values, or is
 * an error record. The result is exactly what `decodeBatch` then `RecordRules.prepare` give.
 */

const TIME = -1;
/** The record must be decoded (see above). */
const DECODE = -2;
/** A block is closed once it holds this many rows or this many bytes of values. */
const BLOCK_ROWS = 4096;
const BLOCK_BYTES = 4 * 1024 * 1024;

type Summary = ColumnSummary[number];

/**
 * The values of one column of the block being built, encoded one after another. Runs are kept from block to
 * block (`reset`), so a part's columns grow their buffers once rather than for every block: buffers made and
 * dropped by the thousand are memory outside the heap that makes the garbage collector run again and again.
 */
class Run {
  bytes = new Uint8Array(1024);
  length = 0;
  /** Rows with a value (or ABSENT) written. */
  rows = 0;

  reset(): void {
    this.length = 0;
    this.rows = 0;
  }

  private room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + n, this.bytes.length * 2));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Fills rows without a value up to `row`. */
  pad(row: number): void {
    while (this.rows < row) this.write(ABSENT, 0, ABSENT.length);
  }

  write(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.room(n);
    if (n <= 32) for (let i = 0; i < n; i++) this.bytes[this.length + i] = src[start + i] as number;
    else this.bytes.set(src.subarray(start, end), this.length);
    this.length += n;
    this.rows++;
  }
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array, start: number, end: number): boolean {
  if (a === undefined || a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

const isFraction = (v: unknown) => typeof v === 'number' && !Number.isInteger(v);

export class ColumnStager {
  private readonly rules = new RecordRules();
  private readonly seen = new Map<string, Summary>();
  private readonly blocks: Uint8Array[] = [];
  // The block being built.
  private binary = false;
  /** The rows' times (the first `rows`), kept from block to block like the runs. */
  private time = new Float64Array(BLOCK_ROWS);
  private rows = 0;
  private columns: string[] = [];
  private index = new Map<string, number>();
  private runs: Run[] = [];
  /** Runs of closed blocks, to use again. */
  private spare: Run[] = [];
  private summaries: (Summary | undefined)[] = [];
  private size = 0;
  /** The record each column last got a value in: a key repeated within a record is seen. */
  private stamps: number[] = [];
  private stamp = 0;
  /** The previous record's key bytes by position, and what each resolved to. */
  private shapeKeys: Uint8Array[] = [];
  private shapeColumns: number[] = [];
  // A record's entries before it is written: column, value start, value end.
  private entryColumn: number[] = [];
  private entryStart: number[] = [];
  private entryEnd: number[] = [];

  /** Lays out the batch's valid records; returns the others (decoded as `decodeBatch` would) for the error file. */
  add(batch: RecordBatch): Record<string, unknown>[] {
    const binary = batch.binary === true;
    // A block never mixes batches with and without binary data: its values are read as their batch's were.
    if (binary !== this.binary) this.close();
    this.binary = binary;
    const { bytes, ends } = batch;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const errors: Record<string, unknown>[] = [];
    let start = 0;
    for (const end of ends) {
      if (!this.fast(bytes, view, start)) {
        const record = decodeRecordIn(bytes.subarray(start, end), binary);
        if (!this.decoded(record)) errors.push(record);
      }
      start = end;
      if (this.rows >= BLOCK_ROWS || this.size >= BLOCK_BYTES) this.close();
    }
    return errors;
  }

  /** Blocks closed so far (staged.ts `encodeBlock`), for the caller to write; the list is emptied. */
  ready(): Uint8Array[] {
    return this.blocks.splice(0);
  }

  /** Closes the last block: `ready()` then holds every block. */
  end(): void {
    this.close();
  }

  /** What the rows staged so far need of the table's schema. */
  summary(): ColumnSummary {
    return [...this.seen.values()].map(([column, type, fraction]): Summary => [column, type, fraction]);
  }

  /** Stages the record at `start` from its bytes; false when it must be decoded instead (nothing written). */
  private fast(bytes: Uint8Array, view: DataView, start: number): boolean {
    const { count, at } = mapEntries(bytes, start);
    if (count > tableLimits.maxColumns + 1) return false;
    const stamp = ++this.stamp;
    let pos = at;
    let timeStart = -1;
    let timeEnd = -1;
    let n = 0;
    for (let k = 0; k < count; k++) {
      const keyStart = pos;
      // A key is a string or binary (the scanner checked): short ones have their length in the first byte.
      const b = bytes[pos] as number;
      pos = b >= 0xa0 && b <= 0xbf ? pos + 1 + b - 0xa0 : textBytes(bytes, pos).end;
      let c: number;
      if (sameBytes(this.shapeKeys[k], bytes, keyStart, pos)) c = this.shapeColumns[k] as number;
      else {
        const key = textBytes(bytes, keyStart);
        c = this.resolve(bytes, key.start, key.end);
        if (c === DECODE) return false;
        this.shapeKeys[k] = bytes.slice(keyStart, pos);
        this.shapeColumns[k] = c;
      }
      const valueStart = pos;
      pos = skipValue(bytes, pos);
      if (c === TIME) {
        if (timeStart >= 0) return false;
        timeStart = valueStart;
        timeEnd = pos;
        continue;
      }
      if (this.stamps[c] === stamp) return false;
      this.stamps[c] = stamp;
      this.entryColumn[n] = c;
      this.entryStart[n] = valueStart;
      this.entryEnd[n] = pos;
      n++;
    }
    if (timeStart < 0 || n > tableLimits.maxColumns) return false;
    const time = this.readTime(bytes, view, timeStart, timeEnd);
    if (time === null) return false;
    const row = this.rows++;
    this.time[row] = time;
    for (let j = 0; j < n; j++) {
      const c = this.entryColumn[j] as number;
      const s = this.entryStart[j] as number;
      const e = this.entryEnd[j] as number;
      const run = this.runs[c] as Run;
      run.pad(row);
      run.write(bytes, s, e);
      this.size += e - s;
      const b = bytes[s] as number;
      const summary = this.summaries[c];
      if (summary === undefined) {
        if (b !== 0xc0) this.note(c, decodeValue(bytes.subarray(s, e), this.binary));
      } else if (!summary[2] && (b === 0xca || b === 0xcb)) {
        const x = b === 0xca ? view.getFloat32(s + 1) : view.getFloat64(s + 1);
        if (!Number.isInteger(x)) summary[2] = true;
      }
    }
    return true;
  }

  /** A record decoded whole: staged from its values when the rules take it; false for an error record. */
  private decoded(record: Record<string, unknown>): boolean {
    const prepared = this.rules.prepare(record);
    if (!prepared) return false;
    const row = this.rows++;
    this.time[row] = prepared.time;
    for (const [column, value] of prepared.values) {
      const c = this.columnIndex(column);
      const bytes = encodeValue(value);
      const run = this.runs[c] as Run;
      run.pad(row);
      run.write(bytes, 0, bytes.length);
      this.size += bytes.length;
      if (value !== null && value !== undefined) {
        const summary = this.summaries[c];
        if (summary === undefined) this.note(c, value);
        else if (!summary[2] && isFraction(value)) summary[2] = true;
      }
    }
    return true;
  }

  /** Column `c` holds a value for the first time in this block. */
  private note(c: number, value: unknown): void {
    const column = this.columns[c] as string;
    let summary = this.seen.get(column);
    if (!summary) {
      summary = [column, inferType(value) as string, false];
      this.seen.set(column, summary);
    }
    if (isFraction(value)) summary[2] = true;
    this.summaries[c] = summary;
  }

  /** What a key (its bytes) is: `time`, a column of the block, or DECODE when the record needs the rules. */
  private resolve(bytes: Uint8Array, start: number, end: number): number {
    let key = '';
    for (let i = start; i < end; i++) {
      const b = bytes[i] as number;
      if (b >= 0x80) return DECODE;
      key += String.fromCharCode(b);
    }
    if (key === 'time') return TIME;
    return this.rules.columnOf(key) === key ? this.columnIndex(key) : DECODE;
  }

  /** `time` as the record rules read it; null when it is not a valid time (the record then goes the slow way). */
  private readTime(bytes: Uint8Array, view: DataView, start: number, end: number): number | null {
    const b = bytes[start] as number;
    // Whole numbers of 32 bits or fewer are always valid times.
    if (b <= 0x7f) return b;
    if (b === 0xce) return view.getUint32(start + 1);
    if (b === 0xd2) return view.getInt32(start + 1);
    return this.rules.timeOf(decodeValue(bytes.subarray(start, end), this.binary));
  }

  private columnIndex(column: string): number {
    let c = this.index.get(column);
    if (c === undefined) {
      c = this.columns.length;
      this.index.set(column, c);
      this.columns.push(column);
      const run = this.spare.pop() ?? new Run();
      run.reset();
      this.runs.push(run);
      this.summaries.push(undefined);
      this.stamps.push(0);
    }
    return c;
  }

  private close(): void {
    const rows = this.rows;
    if (rows > 0) {
      for (const run of this.runs) run.pad(rows);
      this.blocks.push(encodeBlock(this.columns, this.time.subarray(0, rows), this.binary, this.runs));
    }
    this.rows = 0;
    this.spare.push(...this.runs);
    this.columns = [];
    this.index = new Map();
    this.runs = [];
    this.summaries = [];
    this.stamps = [];
    this.shapeKeys = [];
    this.shapeColumns = [];
    this.size = 0;
  }
}
