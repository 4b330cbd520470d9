import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { BulkFormatError } from './errors';
import type { PartLimits } from './limits';
import { type RecordBatch, RecordScanner } from './scanner';

export interface ReadPartOptions {
  limits: PartLimits;
  /** Each compressed chunk as it arrives, before it is decompressed: e.g. to write the part to a file. */
  onCompressed?: (chunk: Uint8Array) => void | Promise<void>;
  /** Each batch of complete, checked records; the batch's bytes are valid until the returned promise settles. */
  onBatch?: (batch: RecordBatch) => void | Promise<void>;
}

export interface PartSummary {
  records: number;
  compressedBytes: number;
  decompressedBytes: number;
}

const MiB = 1024 * 1024;
const size = (n: number) => (n >= MiB ? `${Math.round((n / MiB) * 10) / 10} MiB` : `${n} bytes`);

function isZlibError(e: unknown): e is Error & { code: string } {
  const code = (e as { code?: unknown } | null)?.code;
  return e instanceof Error && typeof code === 'string' && code.startsWith('Z_');
}

/**
 * Reads a part (gzip of concatenated msgpack maps) from a byte stream, checking every limit as the
 * bytes arrive: compressed size, decompressed size (so a gzip bomb stops at the cap, holding no more
 * than one zlib chunk), and the structure of each record. Throws a BulkFormatError for a part that
 * breaks a limit or is corrupt; nothing of the part is trusted before this returns.
 */
export async function readGzipPart(source: AsyncIterable<Uint8Array>, options: ReadPartOptions): Promise<PartSummary> {
  const { limits, onCompressed, onBatch } = options;
  const scanner = new RecordScanner(limits);
  let compressedBytes = 0;
  let decompressedBytes = 0;
  try {
    await pipeline(
      source,
      async function* countCompressed(chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          compressedBytes += chunk.length;
          if (compressedBytes > limits.maxCompressedBytes) {
            throw new BulkFormatError(
              'too_large',
              `The part is larger than the limit of ${size(limits.maxCompressedBytes)} compressed: split it into smaller parts.`,
            );
          }
          if (onCompressed) await onCompressed(chunk);
          yield chunk;
        }
        if (compressedBytes === 0) throw new BulkFormatError('corrupt', 'The part is empty: send a gzip file.');
      },
      createGunzip({ chunkSize: 64 * 1024 }),
      async function scanRecords(chunks: AsyncIterable<Uint8Array>) {
        for await (const chunk of chunks) {
          decompressedBytes += chunk.length;
          if (decompressedBytes > limits.maxDecompressedBytes) {
            throw new BulkFormatError(
              'too_large',
              `The part expands to more than the limit of ${size(limits.maxDecompressedBytes)} when decompressed: split it into smaller parts.`,
            );
          }
          const batch = scanner.push(chunk);
          if (onBatch && batch.ends.length > 0) await onBatch(batch);
        }
        scanner.end();
      },
    );
  } catch (e) {
    if (isZlibError(e)) {
      throw new BulkFormatError('corrupt', `The part is not a valid gzip file (${e.message}).`);
    }
    throw e;
  }
  return { records: scanner.records, compressedBytes, decompressedBytes };
}
