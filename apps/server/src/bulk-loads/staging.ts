import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { FILE_MODE } from '../platform/fileModes';

/**
 * A run's rows on disk between reading and landing, so the target is written in one short transaction
 * and memory holds one batch at a time. Frames of `[u32 length][v8-serialized batch]` (v8 keeps bigints).
 */

export class StageWriter {
  private readonly fd: number;
  rows = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w', FILE_MODE);
  }

  write(batch: unknown[][]): void {
    if (batch.length === 0) return;
    const body = serialize(batch);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32LE(body.length, 0);
    writeSync(this.fd, head);
    writeSync(this.fd, body);
    this.rows += batch.length;
  }

  /**
   * Closes the file once; later calls do nothing. A second close of the same number would close whatever
   * file another thread (a background worker) opened under it since.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private closed = false;
}

function readFully(fd: number, length: number): Buffer | null {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, null);
    if (n === 0) break;
    got += n;
  }
  if (got === 0) return null;
  if (got < length) throw new Error('The staged rows of this run are cut short; run it again.');
  return buf;
}

/** The staged batches in order, read synchronously (they land inside one transaction). */
export function* readStage(path: string): Generator<unknown[][]> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const head = readFully(fd, 4);
      if (!head) return;
      const body = readFully(fd, head.readUInt32LE(0));
      if (!body) throw new Error('The staged rows of this run are cut short; run it again.');
      yield deserialize(body) as unknown[][];
    }
  } finally {
    closeSync(fd);
  }
}
