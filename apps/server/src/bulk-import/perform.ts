import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { decodeBatch, encodeRecords, type PartLimits, type RecordBatch } from '@svc/bulk-format';
import { readGzipPart } from '@svc/bulk-format/node';
import type { AppDeps } from '../platform/context';
import { abs, performFiles, writeAll } from './files';
import { RecordRules } from './records';
import { listParts, type SessionRow } from './sessions';
import { keepFiles, openFile } from './sharedFiles';

/** How far a perform has got: parts read of all, and records sorted so far. */
export interface PerformProgress {
  parts_done: number;
  parts_total: number;
  records: number;
}

export interface PerformCounts {
  valid_parts: number;
  error_parts: number;
  valid_records: number;
  error_records: number;
}

async function syncFile(path: string): Promise<void> {
  const file = await open(path, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Reads every part of a session and sorts its records: valid ones are staged (their msgpack bytes,
 * copied as uploaded, into one file), the others go to the error file that error_records serves. A
 * part with any error record counts as an error part. Nothing here touches the table: commit lands
 * the staged rows. The files belong to this perform's token alone, so a perform cut short leaves only
 * files no session points at. Runs in a background worker (tasks.ts).
 */
export interface PerformRun {
  limits: PartLimits;
  signal?: AbortSignal;
  onProgress?: (progress: PerformProgress) => void;
  /** The crash point after each part (tests): may throw, or hold the perform there. */
  crash?: (point: 'perform:staging') => Promise<void>;
}

export async function performSession(
  deps: AppDeps,
  session: SessionRow,
  token: string,
  { limits, signal, onProgress, crash }: PerformRun,
): Promise<PerformCounts> {
  const { dataDir } = deps.config;
  const files = performFiles(session, token);
  await mkdir(abs(dataDir, files.dir), { recursive: true });
  const staged = await open(abs(dataDir, files.staged), 'w');
  const errorsGzip = createGzip();
  const errorsWritten = pipeline(errorsGzip, createWriteStream(abs(dataDir, files.errors)));
  const rules = new RecordRules();
  const counts: PerformCounts = { valid_parts: 0, error_parts: 0, valid_records: 0, error_records: 0 };

  const writeErrors = async (records: Record<string, unknown>[]) => {
    if (!errorsGzip.write(encodeRecords(records))) await once(errorsGzip, 'drain');
  };
  // Valid records are written as runs of their original bytes: no re-encoding, one write per run.
  const sortBatch = async (batch: RecordBatch) => {
    signal?.throwIfAborted();
    const records = decodeBatch(batch);
    let runStart = -1;
    let errors: Record<string, unknown>[] = [];
    let partErrors = 0;
    for (let i = 0; i <= records.length; i++) {
      const record = records[i];
      const ok = record !== undefined && rules.accepts(record);
      const start = i === 0 ? 0 : (batch.ends[i - 1] as number);
      if (ok && runStart < 0) runStart = start;
      if (!ok && runStart >= 0) {
        await writeAll(staged, batch.bytes.subarray(runStart, start));
        runStart = -1;
      }
      if (record !== undefined && !ok) {
        errors.push(record);
        partErrors++;
        if (errors.length >= 1000) {
          await writeErrors(errors);
          errors = [];
        }
      }
    }
    if (errors.length > 0) await writeErrors(errors);
    counts.error_records += partErrors;
    counts.valid_records += records.length - partErrors;
    return partErrors;
  };

  const parts = await listParts(deps.storage.db, session);
  const progress = (parts_done: number) =>
    onProgress?.({ parts_done, parts_total: parts.length, records: counts.valid_records + counts.error_records });

  try {
    progress(0);
    for (const [i, part] of parts.entries()) {
      let partErrors = 0;
      const file = await openFile(deps, session.account_id, part.file);
      if (!file) throw new Error(`The file of part "${part.name}" is missing; upload the part again.`);
      await readGzipPart(file.read(), {
        limits,
        onBatch: async (batch) => {
          partErrors += await sortBatch(batch);
          progress(i);
        },
      });
      if (partErrors > 0) counts.error_parts++;
      else counts.valid_parts++;
      progress(i + 1);
      await crash?.('perform:staging');
    }
    errorsGzip.end();
    await errorsWritten;
    // Durable before the session points at these files.
    await staged.sync();
    await syncFile(abs(dataDir, files.errors));
    // Any node may commit the session or serve its error records.
    await keepFiles(deps, session.account_id, [files.staged, files.errors]);
    return counts;
  } catch (err) {
    errorsGzip.destroy();
    await errorsWritten.catch(() => undefined);
    await rm(abs(dataDir, files.dir), { recursive: true, force: true });
    throw err;
  } finally {
    await staged.close().catch(() => undefined);
  }
}
