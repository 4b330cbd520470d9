import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppDeps } from '../platform/context';
import { many, one, run, sql, transaction } from '../platform/storage';
import type { JobRow } from './jobStore';

/**
 * Where query results are kept once a job has written them: on SQLite (one node) the files under the data
 * directory; on PostgreSQL in the database, in parts of `PART_BYTES`, so any node can serve them (the files
 * the engine wrote are removed once stored). Both give the same bytes with ranges.
 */

export type ResultFile = 'msgpack' | 'gzip';

export interface StoredResult {
  size: number;
  /** The bytes from `start` to `end`, both included. */
  read(start: number, end: number): AsyncIterable<Uint8Array>;
}

export interface ResultStore {
  /** Keeps what the engine wrote to `files` for the job. */
  keep(job: Pick<JobRow, 'id' | 'account_id'>, files: Record<ResultFile, string>): Promise<void>;
  /** The kept file, or null when there is none. */
  open(job: Pick<JobRow, 'id' | 'account_id' | 'result_path'>, file: ResultFile): Promise<StoredResult | null>;
  /** Forgets the job's result (a job that did not succeed), wherever it is. */
  remove(job: Pick<JobRow, 'id' | 'account_id'>, files: Record<ResultFile, string>): Promise<void>;
}

export const PART_BYTES = 1024 * 1024;

/** SQLite: the files stay where the engine wrote them. */
function fileResultStore(dataDir: string): ResultStore {
  return {
    async keep() {},
    async open(job, file) {
      if (!job.result_path) return null;
      const path = join(dataDir, job.result_path) + (file === 'gzip' ? '.gz' : '');
      if (!existsSync(path)) return null;
      return { size: statSync(path).size, read: (start, end) => createReadStream(path, { start, end }) };
    },
    async remove(_job, files) {
      rmSync(files.msgpack, { force: true });
      rmSync(files.gzip, { force: true });
    },
  };
}

/** PostgreSQL: the files move into `job_results`, in parts. */
export function databaseResultStore(deps: AppDeps): ResultStore {
  const db = () => deps.storage.db;
  return {
    async keep(job, files) {
      await transaction(deps.storage, async (tx) => {
        for (const file of ['msgpack', 'gzip'] as const) {
          const handle = await open(files[file]);
          try {
            const buffer = Buffer.alloc(PART_BYTES);
            for (let part = 0; ; part++) {
              const { bytesRead } = await handle.read(buffer, 0, PART_BYTES, part * PART_BYTES);
              if (bytesRead === 0 && part > 0) break;
              const bytes = Buffer.from(buffer.subarray(0, bytesRead));
              await run(
                tx,
                sql`INSERT INTO job_results (account_id, job_id, format, part, bytes)
                    VALUES (${job.account_id}, ${job.id}, ${file}, ${part}, ${bytes})`,
              );
              if (bytesRead < PART_BYTES) break;
            }
          } finally {
            await handle.close();
          }
        }
      });
      rmSync(files.msgpack, { force: true });
      rmSync(files.gzip, { force: true });
    },
    async open(job, file) {
      const found = await one<{ parts: number; size: number | null }>(
        db(),
        sql`SELECT COUNT(*) AS parts, SUM(LENGTH(bytes)) AS size FROM job_results
            WHERE account_id = ${job.account_id} AND job_id = ${job.id} AND format = ${file}`,
      );
      if (!found || Number(found.parts) === 0) return null;
      return {
        size: Number(found.size ?? 0),
        read: (start, end) => readParts(deps, job, file, start, end),
      };
    },
    async remove(job, files) {
      await run(db(), sql`DELETE FROM job_results WHERE account_id = ${job.account_id} AND job_id = ${job.id}`);
      rmSync(files.msgpack, { force: true });
      rmSync(files.gzip, { force: true });
    },
  };
}

/** Reads the parts that hold `start..end`, one at a time, so a large result is never in memory at once. */
async function* readParts(
  deps: AppDeps,
  job: Pick<JobRow, 'id' | 'account_id'>,
  file: ResultFile,
  start: number,
  end: number,
): AsyncIterable<Uint8Array> {
  for (let part = Math.floor(start / PART_BYTES); part <= Math.floor(end / PART_BYTES); part++) {
    const rows = await many<{ bytes: Uint8Array }>(
      deps.storage.db,
      sql`SELECT bytes FROM job_results
          WHERE account_id = ${job.account_id} AND job_id = ${job.id} AND format = ${file} AND part = ${part}`,
    );
    const bytes = rows[0]?.bytes;
    if (!bytes) return;
    const offset = part * PART_BYTES;
    const from = Math.max(0, start - offset);
    const to = Math.min(bytes.length, end - offset + 1);
    if (to > from) yield Buffer.from(bytes).subarray(from, to);
  }
}

/** The store of the app's backend. */
export function resultStoreFor(deps: AppDeps): ResultStore {
  return deps.storage.backend === 'postgres' ? databaseResultStore(deps) : fileResultStore(deps.config.dataDir);
}
