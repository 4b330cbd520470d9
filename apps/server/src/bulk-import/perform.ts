import { createReadStream, createWriteStream } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { encodeRecords, type PartLimits } from '@svc/bulk-format';
import { readGzipPart } from '@svc/bulk-format/node';
import { type ColumnSummary, mergeSummaries } from '../data';
import type { AppDeps } from '../platform/context';
import { FILE_MODE, makeDirAsync } from '../platform/fileModes';
import { ColumnStager } from './columnStager';
import { abs, performFiles, writeAll } from './files';
import type { PartRow, SessionRow } from './sessions';
import { keepFiles, openFile } from './sharedFiles';
import type { Manifest } from './staged';

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

/** What performing one part produced (its files are `performFiles(…).part(index)` and `.partErrors(index)`). */
export interface PartResult {
  index: number;
  valid: number;
  errors: number;
  columns: ColumnSummary;
}

export interface PartRun {
  limits: PartLimits;
  signal?: AbortSignal;
  /** Records sorted so far in this part. */
  onRecords?: (records: number) => void;
  /** The crash point once the part is staged (tests): may throw, or hold the perform there. */
  crash?: (point: 'perform:staging') => Promise<void>;
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
 * Reads one part of a session and sorts its records: valid ones are staged laid out by column (staged.ts), the
 * others (their msgpack, as decoded) go to the part's error file. Nothing here touches the table: commit lands
 * the staged rows. Each part runs as a background task of its own, so a session's parts are read in parallel;
 * the files belong to this perform's token alone, so a perform cut short leaves only files no session points at.
 */
export async function performPart(
  deps: AppDeps,
  session: SessionRow,
  token: string,
  part: Pick<PartRow, 'name' | 'file'>,
  index: number,
  { limits, signal, onRecords, crash }: PartRun,
): Promise<PartResult> {
  const { dataDir } = deps.config;
  const files = performFiles(session, token);
  await makeDirAsync(abs(dataDir, files.stagedDir));
  const staged = await open(abs(dataDir, files.part(index)), 'w', FILE_MODE);
  const errors = await open(abs(dataDir, files.partErrors(index)), 'w', FILE_MODE);
  try {
    const stager = new ColumnStager();
    const result: PartResult = { index, valid: 0, errors: 0, columns: [] };
    const file = await openFile(deps, session.account_id, part.file);
    if (!file) throw new Error(`The file of part "${part.name}" is missing; upload the part again.`);
    const writeBlocks = async () => {
      const blocks = stager.ready();
      if (blocks.length === 0) return;
      for (const block of blocks) await writeAll(staged, block);
      // With each block, not each batch: a report crosses threads.
      onRecords?.(result.valid + result.errors);
    };
    await readGzipPart(file.read(), {
      limits,
      onBatch: async (batch) => {
        signal?.throwIfAborted();
        const refused = stager.add(batch);
        result.valid += batch.ends.length - refused.length;
        if (refused.length > 0) {
          result.errors += refused.length;
          await writeAll(errors, encodeRecords(refused));
        }
        await writeBlocks();
      },
    });
    stager.end();
    await writeBlocks();
    onRecords?.(result.valid + result.errors);
    result.columns = stager.summary();
    // Durable before the session points at it.
    await staged.sync();
    await crash?.('perform:staging');
    return result;
  } finally {
    await staged.close().catch(() => undefined);
    await errors.close().catch(() => undefined);
  }
}

/**
 * Once every part is staged: the error records of all parts, in part order, gzipped into the one file
 * `error_records` serves, and the manifest (staged.ts) last; everything synced, then kept for every node.
 */
export async function finishPerform(
  deps: AppDeps,
  session: SessionRow,
  token: string,
  results: PartResult[],
): Promise<PerformCounts> {
  const { dataDir } = deps.config;
  const files = performFiles(session, token);
  const parts = [...results].sort((a, b) => a.index - b.index);
  await pipeline(
    async function* () {
      for (const r of parts) yield* createReadStream(abs(dataDir, files.partErrors(r.index)));
    },
    createGzip(),
    createWriteStream(abs(dataDir, files.errors), { mode: FILE_MODE }),
  );
  await syncFile(abs(dataDir, files.errors));
  await Promise.all(parts.map((r) => rm(abs(dataDir, files.partErrors(r.index)), { force: true })));
  const manifest: Manifest = {
    format: 1,
    files: parts.map((r) => files.partName(r.index)),
    columns: parts.reduce<ColumnSummary>((summary, r) => mergeSummaries(summary, r.columns), []),
    records: parts.reduce((n, r) => n + r.valid, 0),
  };
  await writeFile(abs(dataDir, files.manifest), JSON.stringify(manifest), { mode: FILE_MODE });
  await syncFile(abs(dataDir, files.manifest));
  // Any node may commit the session or serve its error records.
  await keepFiles(deps, session.account_id, [files.errors, ...parts.map((r) => files.part(r.index)), files.manifest]);
  return {
    valid_parts: parts.filter((r) => r.errors === 0).length,
    error_parts: parts.filter((r) => r.errors > 0).length,
    valid_records: manifest.records,
    error_records: parts.reduce((n, r) => n + r.errors, 0),
  };
}
