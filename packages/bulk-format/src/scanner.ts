import { BulkFormatError } from './errors';
import type { RecordLimits } from './limits';

/** Complete records found by one `push`: record i spans `bytes[ends[i-1] ?? 0, ends[i])`. */
export interface RecordBatch {
  bytes: Uint8Array;
  ends: number[];
  /** Index of the batch's first record in the whole stream (0-based). */
  firstIndex: number;
  /** Whether a record of the batch holds binary (bin) data, which `decodeBatch` then reads as text where it is. */
  binary?: boolean;
}

/** The msgpack timestamp extension is the only extension a record may carry. */
const TIMESTAMP_EXT = -1;

const EMPTY = new Uint8Array(0);

/** A big-endian length of `n` bytes after the type byte at `pos`, or null when not all there yet. */
function readSize(buf: Uint8Array, pos: number, n: number, len: number): number | null {
  if (pos + 1 + n > len) return null;
  let v = 0;
  for (let i = 1; i <= n; i++) v = v * 256 + (buf[pos + i] as number);
  return v;
}

function describe(byte: number): string {
  if (byte <= 0x7f || byte >= 0xe0 || (byte >= 0xcc && byte <= 0xd3)) return 'an integer';
  if (byte <= 0x8f || byte === 0xde || byte === 0xdf) return 'a map';
  if (byte <= 0x9f || byte === 0xdc || byte === 0xdd) return 'an array';
  if (byte <= 0xbf || (byte >= 0xd9 && byte <= 0xdb)) return 'a string';
  if (byte === 0xc0) return 'nil';
  if (byte === 0xc2 || byte === 0xc3) return 'a boolean';
  if (byte === 0xca || byte === 0xcb) return 'a float';
  if (byte >= 0xc4 && byte <= 0xc6) return 'binary data';
  return 'an extension value';
}

/**
 * Splits a stream of concatenated msgpack values into records without decoding them, checking as it
 * goes that each is a map with string (or binary, as Ruby's msgpack writes them) keys and that no length, size or depth goes past the limits.
 * Lengths are checked on the headers, so a hostile length never makes anything allocate. It is
 * resumable: bytes arrive in chunks of any size and a record may straddle chunks.
 *
 * The bytes of a returned batch stay valid only until the next `push`.
 */
export class RecordScanner {
  private buf: Uint8Array = EMPTY;
  /** Bytes of `buf` in use; `buf[0, start)` has been handed out already. */
  private len = 0;
  private start = 0;
  /** Where scanning resumes, and the open containers of the record being read (items left in each). */
  private pos = 0;
  private stack: number[] = [];
  private index = 0;
  /** The record being scanned holds bin data; `batchBinary` whether a record of the current batch did. */
  private recordBinary = false;
  private batchBinary = false;

  constructor(private readonly limits: RecordLimits) {}

  /** Records seen so far. */
  get records(): number {
    return this.index;
  }

  push(input: Uint8Array): RecordBatch {
    // Always a plain Uint8Array, never a Buffer (zlib's chunks): code reading the bytes then sees one kind of
    // array, and the engine keeps it optimised rather than throwing it away when the other kind turns up.
    const chunk =
      Object.getPrototypeOf(input) === Uint8Array.prototype
        ? input
        : new Uint8Array(input.buffer, input.byteOffset, input.length);
    const firstIndex = this.index;
    this.batchBinary = false;
    if (this.len === this.start) {
      // Nothing pending: scan the chunk in place, and keep only an incomplete tail.
      this.buf = chunk;
      this.len = chunk.length;
      this.start = 0;
      this.pos = 0;
      const ends = this.scan();
      const bytes = chunk.subarray(0, this.start);
      this.keepTail();
      return { bytes, ends, firstIndex, binary: this.batchBinary };
    }
    this.append(chunk);
    const ends = this.scan();
    return { bytes: this.buf.subarray(0, this.start), ends, firstIndex, binary: this.batchBinary };
  }

  /** Call at the end of the stream: a record cut short is a corrupt part. */
  end(): void {
    if (this.len > this.start) {
      throw new BulkFormatError(
        'corrupt',
        `The msgpack stream ends in the middle of record ${this.index + 1}: the part is truncated.`,
      );
    }
  }

  /** Copies an incomplete tail out of a chunk the caller owns. */
  private keepTail(): void {
    if (this.start === this.len) {
      this.buf = EMPTY;
      this.len = this.start = this.pos = 0;
      return;
    }
    const tail = this.buf.subarray(this.start, this.len);
    const own = new Uint8Array(Math.max(tail.length * 2, 64 * 1024));
    own.set(tail);
    this.pos -= this.start;
    this.buf = own;
    this.len = tail.length;
    this.start = 0;
  }

  /** Moves the pending tail to the front (the previous batch is consumed by now) and adds the chunk. */
  private append(chunk: Uint8Array): void {
    if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.len);
      this.len -= this.start;
      this.pos -= this.start;
      this.start = 0;
    }
    const need = this.len + chunk.length;
    if (need > this.buf.length) {
      const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
      grown.set(this.buf.subarray(0, this.len));
      this.buf = grown;
    }
    this.buf.set(chunk, this.len);
    this.len = need;
  }

  private fail(code: 'limit' | 'corrupt', what: string): never {
    throw new BulkFormatError(code, `Record ${this.index + 1}: ${what}`);
  }

  /** Scans complete records from `pos`; returns their end offsets relative to the batch start. */
  private scan(): number[] {
    const ends: number[] = [];
    const { buf, len, limits, stack } = this;
    const base = this.start;
    let pos = this.pos;
    while (pos < len) {
      const itemStart = pos;
      const b = buf[pos] as number;
      const atKey = stack.length === 1 && (stack[0] as number) % 2 === 0;
      if (stack.length === 0 && !(b >= 0x80 && b <= 0x8f) && b !== 0xde && b !== 0xdf) {
        this.fail('corrupt', `each record must be a msgpack map, but this one is ${describe(b)}.`);
      }
      if (atKey && !(b >= 0xa0 && b <= 0xbf) && !(b >= 0xd9 && b <= 0xdb) && !(b >= 0xc4 && b <= 0xc6)) {
        this.fail('corrupt', `every key of a record must be a string, but one is ${describe(b)}.`);
      }
      // Header size, payload size, and for containers the number of items they hold.
      let header = 1;
      let payload = 0;
      let items = -1;
      let isMap = false;
      if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) {
        // One-byte values.
      } else if (b <= 0x8f) {
        items = b - 0x80;
        isMap = true;
      } else if (b <= 0x9f) {
        items = b - 0x90;
      } else if (b <= 0xbf) {
        payload = b - 0xa0;
      } else {
        let v: number | null = 0;
        switch (b) {
          case 0xc1:
            return this.fail('corrupt', 'the byte 0xc1 is never used in msgpack: the data is corrupt.');
          case 0xc4:
          case 0xc5:
          case 0xc6:
          case 0xd9:
          case 0xda:
          case 0xdb: {
            const n = b === 0xc4 || b === 0xd9 ? 1 : b === 0xc5 || b === 0xda ? 2 : 4;
            if (b <= 0xc6) this.recordBinary = true;
            header = 1 + n;
            v = readSize(buf, pos, n, len);
            if (v !== null) {
              if (v > limits.maxStringBytes) {
                this.fail(
                  'limit',
                  `a ${b <= 0xc6 ? 'binary' : 'string'} value of ${v} bytes is longer than the limit of ${limits.maxStringBytes} bytes.`,
                );
              }
              payload = v;
            }
            break;
          }
          case 0xc7:
          case 0xc8:
          case 0xc9:
          case 0xd4:
          case 0xd5:
          case 0xd6:
          case 0xd7:
          case 0xd8: {
            const n = b === 0xc7 ? 1 : b === 0xc8 ? 2 : b === 0xc9 ? 4 : 0;
            header = 2 + n;
            v = n === 0 ? 2 ** (b - 0xd4) : readSize(buf, pos, n, len);
            if (v !== null && pos + header <= len) {
              const type = ((buf[pos + header - 1] as number) << 24) >> 24;
              if (type !== TIMESTAMP_EXT) {
                this.fail('corrupt', `msgpack extension type ${type} is not supported (only timestamps are).`);
              }
              if (v !== 4 && v !== 8 && v !== 12) this.fail('corrupt', `a timestamp of ${v} bytes is malformed.`);
              payload = v;
            } else v = null;
            break;
          }
          case 0xca:
          case 0xcb:
          case 0xcc:
          case 0xcd:
          case 0xce:
          case 0xcf:
          case 0xd0:
          case 0xd1:
          case 0xd2:
          case 0xd3:
            payload = b === 0xca ? 4 : b === 0xcb ? 8 : 2 ** ((b - 0xcc) % 4);
            break;
          case 0xdc:
          case 0xdd:
          case 0xde:
          case 0xdf: {
            const n = b === 0xdc || b === 0xde ? 2 : 4;
            header = 1 + n;
            v = readSize(buf, pos, n, len);
            if (v !== null) {
              items = v;
              isMap = b >= 0xde;
            }
            break;
          }
        }
        if (v === null) break;
      }
      if (items >= 0) {
        if (isMap && items > limits.maxMapSize) {
          this.fail('limit', `a map of ${items} entries has more than the limit of ${limits.maxMapSize}.`);
        }
        if (!isMap && items > limits.maxArrayLength) {
          this.fail('limit', `an array of ${items} items is longer than the limit of ${limits.maxArrayLength}.`);
        }
        if (stack.length + 1 > limits.maxDepth) {
          this.fail('limit', `maps and arrays are nested deeper than the limit of ${limits.maxDepth} levels.`);
        }
      }
      const next = itemStart + header + payload;
      if (next > len) break;
      // The item is complete: count it against its container, open it if it is a container.
      pos = next;
      if (stack.length > 0) stack[stack.length - 1] = (stack[stack.length - 1] as number) - 1;
      if (items > 0) stack.push(isMap ? items * 2 : items);
      while (stack.length > 0 && stack[stack.length - 1] === 0) stack.pop();
      if (stack.length === 0) {
        if (pos - this.start > limits.maxRecordBytes) this.tooBig();
        ends.push(pos - base);
        if (this.recordBinary) this.batchBinary = true;
        this.recordBinary = false;
        this.start = pos;
        this.index++;
      }
    }
    this.pos = pos;
    if (len - this.start > limits.maxRecordBytes) this.tooBig();
    return ends;
  }

  private tooBig(): never {
    return this.fail('limit', `the record is larger than the limit of ${this.limits.maxRecordBytes} bytes.`);
  }
}
