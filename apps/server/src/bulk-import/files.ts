import { randomUUID } from 'node:crypto';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { BulkFormatError, type PartLimits } from '@svc/bulk-format';
import { readGzipPart } from '@svc/bulk-format/node';
import { badRequest, payloadTooLarge } from '../platform/errors';
import { FILE_MODE, makeDirAsync } from '../platform/fileModes';
import type { SessionRow } from './sessions';

/**
 * Where a session's files live, under the data directory: `<dir>/parts/<uuid>.msgpack.gz` for each
 * uploaded part, and `<dir>/perform-<token>/` for what a perform produced (the staged valid rows laid out for
 * the insert, and the error records as gzip of msgpack). Paths in the database are relative.
 */

export const abs = (dataDir: string, rel: string) => join(dataDir, rel);

export function newPartFile(session: SessionRow): string {
  return `${session.dir}/parts/${randomUUID()}.msgpack.gz`;
}

/**
 * A perform's files: the staged rows of each part and their manifest under `staged/` (staged.ts), each part's
 * error records while it runs, and all error records gzipped in `errors.msgpack.gz`. `legacyStaged` is where
 * performs before decision 0027 staged their rows (one file of msgpack maps), still committed as they are.
 */
export function performFiles(session: SessionRow, token: string) {
  const dir = `${session.dir}/perform-${token}`;
  const stagedDir = `${dir}/staged`;
  const partName = (index: number) => `part-${index}.rows`;
  return {
    dir,
    errors: `${dir}/errors.msgpack.gz`,
    stagedDir,
    manifest: `${stagedDir}/manifest.json`,
    partName,
    part: (index: number) => `${stagedDir}/${partName(index)}`,
    partErrors: (index: number) => `${dir}/errors-${index}.msgpack`,
    legacyStaged: `${dir}/valid.msgpack`,
  };
}

/** Writes every byte: a single write may take fewer than it was given. */
export async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await file.write(bytes, at, bytes.length - at);
    at += bytesWritten;
  }
}

/** A part, a gzip bomb or corrupt input becomes the wire's 413 or 400 with the format's message. */
export function toApiError(err: unknown): unknown {
  if (err instanceof BulkFormatError) {
    return err.code === 'too_large' ? payloadTooLarge(err.message) : badRequest(err.message);
  }
  return err;
}

/**
 * Streams an upload to `rel`, checking every limit as the bytes arrive; the file is synced to disk
 * before this returns, so a part acknowledged to a client survives a crash. A refused part leaves no file.
 */
export async function writePartFile(
  dataDir: string,
  rel: string,
  body: AsyncIterable<Uint8Array>,
  limits: PartLimits,
): Promise<{ bytes: number; records: number }> {
  const path = abs(dataDir, rel);
  await makeDirAsync(dirname(path));
  const file = await open(path, 'wx', FILE_MODE);
  try {
    const summary = await readGzipPart(body, {
      limits,
      onCompressed: (chunk) => writeAll(file, chunk),
    });
    await file.sync();
    await file.close();
    return { bytes: summary.compressedBytes, records: summary.records };
  } catch (err) {
    await file.close().catch(() => undefined);
    await rm(path, { force: true });
    throw toApiError(err);
  }
}
