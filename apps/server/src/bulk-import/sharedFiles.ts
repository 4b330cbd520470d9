import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppDeps } from '../platform/context';
import { FILE_MODE, makeDirAsync } from '../platform/fileModes';
import { many, one, run, sql, transaction } from '../platform/storage';

/**
 * A session's files (parts, staged rows, error records) as every node sees them (decision 0022). Paths are
 * relative to the data folder. SQLite (one node): the files stay where they were written. PostgreSQL (any
 * number of nodes, each with a data folder of its own): a file one node wrote and synced is kept in
 * `bulk_import_files` in parts of `PART_BYTES`, and its local copy removed; any node then streams it from
 * there, or reads a temporary local copy. Files are never changed once kept (each perform writes new ones),
 * so a reader never sees half of one.
 */
export interface SharedFile {
  size: number;
  read(): AsyncIterable<Uint8Array>;
}

export interface LocalCopy {
  path: string;
  /** Removes the copy when it was made for this read. */
  release(): Promise<void>;
}

const PART_BYTES = 1024 * 1024;

const local = (deps: AppDeps, rel: string) => join(deps.config.dataDir, rel);
const shared = (deps: AppDeps) => deps.storage.backend === 'postgres';

/**
 * Makes the files written (and synced) at `rels` readable by every node, all or none, then removes their local
 * copies. Nothing to do on SQLite.
 */
export async function keepFiles(deps: AppDeps, accountId: number, rels: string[]): Promise<void> {
  if (!shared(deps)) return;
  await transaction(deps.storage, async (tx) => {
    for (const rel of rels) {
      // A file kept again (a retried call) replaces what was there.
      await tx.deleteFrom('bulk_import_files').where('account_id', '=', accountId).where('path', '=', rel).execute();
      const handle = await open(local(deps, rel), 'r');
      try {
        const buffer = Buffer.alloc(PART_BYTES);
        for (let part = 0; ; part++) {
          const { bytesRead } = await handle.read(buffer, 0, PART_BYTES, part * PART_BYTES);
          if (bytesRead === 0 && part > 0) break;
          await run(
            tx,
            sql`INSERT INTO bulk_import_files (account_id, path, part, bytes)
                VALUES (${accountId}, ${rel}, ${part}, ${Buffer.from(buffer.subarray(0, bytesRead))})`,
          );
          if (bytesRead < PART_BYTES) break;
        }
      } finally {
        await handle.close();
      }
    }
  });
  await Promise.all(rels.map((rel) => rm(local(deps, rel), { force: true })));
}

/** The file's size and bytes: the local file when this node has it, else the kept one; null when neither is. */
export async function openFile(deps: AppDeps, accountId: number, rel: string): Promise<SharedFile | null> {
  const path = local(deps, rel);
  if (existsSync(path)) return { size: statSync(path).size, read: () => createReadStream(path) };
  if (!shared(deps)) return null;
  const found = await one<{ parts: number; size: number | null }>(
    deps.storage.db,
    sql`SELECT COUNT(*) AS parts, SUM(LENGTH(bytes)) AS size FROM bulk_import_files
        WHERE account_id = ${accountId} AND path = ${rel}`,
  );
  if (!found || Number(found.parts) === 0) return null;
  const parts = Number(found.parts);
  return {
    size: Number(found.size ?? 0),
    // One part in memory at a time, however large the file.
    read: async function* () {
      for (let part = 0; part < parts; part++) {
        const row = await deps.storage.db
          .selectFrom('bulk_import_files')
          .select('bytes')
          .where('account_id', '=', accountId)
          .where('path', '=', rel)
          .where('part', '=', part)
          .executeTakeFirst();
        if (!row) throw new Error(`The bulk import file ${rel} changed while it was read.`);
        yield Buffer.from(row.bytes);
      }
    },
  };
}

/**
 * A local path to read the file synchronously: the file itself when this node has it, else a temporary copy
 * of the kept one under `<data dir>/tmp`, removed by `release`. A file that is nowhere gives its local path
 * (reading it fails as a missing file does).
 */
export async function localCopy(deps: AppDeps, accountId: number, rel: string): Promise<LocalCopy> {
  const path = local(deps, rel);
  const none: LocalCopy = { path, release: async () => {} };
  if (existsSync(path) || !shared(deps)) return none;
  const file = await openFile(deps, accountId, rel);
  if (!file) return none;
  const dir = join(deps.config.dataDir, 'tmp');
  await makeDirAsync(dir);
  const copy = join(dir, `${randomUUID()}.bulk`);
  const handle = await open(copy, 'w', FILE_MODE);
  try {
    for await (const chunk of file.read()) await handle.write(chunk);
  } catch (err) {
    await handle.close();
    await rm(copy, { force: true });
    throw err;
  }
  await handle.close();
  return { path: copy, release: () => rm(copy, { force: true }) };
}

/** Removes a file wherever it is (nothing for null). */
export async function removeFile(deps: AppDeps, accountId: number, rel: string | null): Promise<void> {
  if (!rel) return;
  await rm(local(deps, rel), { force: true });
  if (shared(deps)) {
    await deps.storage.db
      .deleteFrom('bulk_import_files')
      .where('account_id', '=', accountId)
      .where('path', '=', rel)
      .execute();
  }
}

/** Removes a folder and every file under it, wherever they are. */
export async function removeDir(deps: AppDeps, accountId: number, rel: string): Promise<void> {
  await rm(local(deps, rel), { recursive: true, force: true });
  if (shared(deps)) {
    const prefix = `${rel}/`;
    await run(
      deps.storage.db,
      sql`DELETE FROM bulk_import_files
          WHERE account_id = ${accountId} AND substr(path, 1, ${prefix.length}) = ${prefix}`,
    );
  }
}

/** The names of what is directly in a folder, on this node and kept, without repeats. */
export async function listDir(deps: AppDeps, accountId: number, rel: string): Promise<string[]> {
  const names = new Set(await readdir(local(deps, rel)).catch(() => [] as string[]));
  if (shared(deps)) {
    const prefix = `${rel}/`;
    const rows = await many<{ path: string }>(
      deps.storage.db,
      sql`SELECT DISTINCT path FROM bulk_import_files
          WHERE account_id = ${accountId} AND substr(path, 1, ${prefix.length}) = ${prefix}`,
    );
    for (const { path } of rows) names.add(path.slice(prefix.length).split('/')[0] as string);
  }
  return [...names];
}
