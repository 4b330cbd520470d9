import { closeSync, createReadStream, createWriteStream, openSync, statSync, writeSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Packr } from 'msgpackr';
import { FILE_MODE } from '../../platform/fileModes';

/** Plain msgpack arrays, strings as str (wire-compat §2.3: Python reads them with raw=False). */
const packr = new Packr({ useRecords: false, variableMapSize: true });
const CHUNK = 256 * 1024;

/**
 * Writes a query's rows to a file as concatenated msgpack arrays, refusing past the result size limit, then
 * the gzip of that file (the `msgpack.gz` format, whose size is the job's `result_size`). Both engines use it.
 */
export class ResultWriter {
  private fd: number | null;
  private readonly chunk = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  bytes = 0;
  rows = 0;

  constructor(
    private readonly msgpackPath: string,
    private readonly maxResultBytes: number,
  ) {
    this.fd = openSync(msgpackPath, 'w', FILE_MODE);
  }

  write(row: unknown[]): void {
    const fd = this.fd;
    if (fd === null) throw new Error('The result file is already closed.');
    const packed = packr.pack(row);
    this.bytes += packed.length;
    if (this.bytes > this.maxResultBytes) {
      const limit = this.maxResultBytes;
      const size = limit >= 1048576 ? `${Math.round(limit / 1048576)} MiB` : `${limit} bytes`;
      throw new Error(`The result is larger than ${size}: add a LIMIT, filter or aggregate.`);
    }
    if (this.used + packed.length > CHUNK) {
      writeSync(fd, this.chunk, 0, this.used);
      this.used = 0;
    }
    if (packed.length > CHUNK) writeSync(fd, packed);
    else {
      packed.copy(this.chunk, this.used);
      this.used += packed.length;
    }
    this.rows++;
  }

  /** Flushes and closes the msgpack file, then writes its gzip; returns the gzip's size. */
  async finish(gzipPath: string): Promise<number> {
    this.close();
    await pipeline(createReadStream(this.msgpackPath), createGzip(), createWriteStream(gzipPath, { mode: FILE_MODE }));
    return statSync(gzipPath).size;
  }

  /** Closes the file without finishing (a failed query). */
  close(): void {
    if (this.fd === null) return;
    if (this.used > 0) writeSync(this.fd, this.chunk, 0, this.used);
    closeSync(this.fd);
    this.fd = null;
  }
}
