import { decodeBatch, defaultPartLimits, type PartLimits } from '@svc/bulk-format';
import { readGzipPart } from '@svc/bulk-format/node';
import { toApiError } from '../bulk-import/files';
import { type DatabaseRow, type DataTx, dataPlane, type PreparedRecord, prepareRecord, writeBatches } from '../data';
import type { AppDeps } from '../platform/context';
import { ApiError, badRequest } from '../platform/errors';
import { one, run, sql } from '../platform/storage';

/**
 * The streaming import of `PUT /v3/table/import(_with_id)` (td-client-*, fluent-plugin-td, `td
 * table:import`): a gzip of concatenated msgpack maps, decoded with the bulk-format decoder, checked with
 * the table store's record rules, and written with the data plane's group write, all in ONE transaction
 * of the database's data. Runs as a task in the database's lane (tasks.ts).
 *
 * A unique id makes the import idempotent: its marker is written in the same transaction as the rows
 * (`_svc$imports`, next to the rows like bulk import's commit marker), so a retry of an import that
 * committed finds it and writes nothing, across restarts; two imports of one id at once (two nodes on
 * PostgreSQL) serialise on the marker's key, and the second one rolls back.
 */

/** Sized for fluent-plugin-td's chunks (32 MiB of msgpack) and the CLI's (about 1 MiB of gzip). */
export const importLimits: PartLimits = {
  ...defaultPartLimits,
  maxCompressedBytes: 32 * 1024 * 1024,
  maxDecompressedBytes: 64 * 1024 * 1024,
};

const MARKERS = '_svc$imports';
const MARKER_COLUMNS = `table_name TEXT NOT NULL, unique_id TEXT NOT NULL, records BIGINT NOT NULL,
  imported_at BIGINT NOT NULL, PRIMARY KEY (table_name, unique_id)`;
/** Markers are kept this long: clients retry a failed upload within hours (fluentd gives up after 72). */
const MARKER_KEEP_MS = 14 * 24 * 3600 * 1000;

export interface ImportArgs {
  database: DatabaseRow;
  table: string;
  /** The request body as it arrived (gzip). */
  body: Uint8Array;
  uniqueId: string | null;
}

export interface ImportOutcome {
  records: number;
  /** The unique id had been imported already: nothing was written. */
  duplicate: boolean;
}

class AlreadyImported extends Error {}

/** The body's records, prepared for the table store; a record that breaks a rule fails the whole import. */
async function decode(body: Uint8Array, now: number): Promise<PreparedRecord[]> {
  const records: PreparedRecord[] = [];
  const defaultTime = Math.floor(now / 1000);
  try {
    await readGzipPart(
      (async function* () {
        yield body;
      })(),
      {
        limits: importLimits,
        onBatch: (batch) => {
          for (const record of decodeBatch(batch)) {
            try {
              // Without a time a record takes the receive time, as the other ingestion routes do.
              records.push(prepareRecord(record, defaultTime));
            } catch (err) {
              if (!(err instanceof ApiError)) throw err;
              throw badRequest(`Record ${records.length + 1}: ${err.message} Nothing was imported.`);
            }
          }
        },
      },
    );
  } catch (err) {
    throw toApiError(err);
  }
  return records;
}

async function alreadyImported(deps: AppDeps, args: ImportArgs): Promise<boolean> {
  return dataPlane(deps).transaction(args.database, async (t) => {
    if (!(await t.hasTable(MARKERS))) return false;
    const found = await one(
      t.ex,
      sql`SELECT 1 AS one FROM ${t.table(MARKERS)} WHERE table_name = ${args.table} AND unique_id = ${args.uniqueId}`,
    );
    return found !== undefined;
  });
}

/** Imports the body's records into the table once (per unique id, when there is one). */
export async function importRecords(deps: AppDeps, args: ImportArgs): Promise<ImportOutcome> {
  // In the lane nothing else writes this database meanwhile: a retry of a committed import stops here.
  if (args.uniqueId !== null && (await alreadyImported(deps, args))) return { records: 0, duplicate: true };
  const now = deps.clock.now().getTime();
  const records = await decode(args.body, now);
  // An empty import (fluent-plugin-td sends one to see that the table exists) writes nothing.
  if (records.length === 0) return { records: 0, duplicate: false };
  const { uniqueId } = args;
  const marker =
    uniqueId === null
      ? undefined
      : async (t: DataTx) => {
          await t.ensureTable(MARKERS, MARKER_COLUMNS);
          // Another node's import of the same id holds this key until it ends; then this one rolls back.
          const claimed = await one(
            t.ex,
            sql`INSERT INTO ${t.table(MARKERS)} (table_name, unique_id, records, imported_at)
                VALUES (${args.table}, ${uniqueId}, ${records.length}, ${now})
                ON CONFLICT DO NOTHING RETURNING unique_id`,
          );
          if (!claimed) throw new AlreadyImported();
          await run(t.ex, sql`DELETE FROM ${t.table(MARKERS)} WHERE imported_at < ${now - MARKER_KEEP_MS}`);
        };
  try {
    await writeBatches(deps, args.database, [{ table: args.table, records }], marker);
  } catch (err) {
    if (err instanceof AlreadyImported) return { records: 0, duplicate: true };
    throw err;
  }
  return { records: records.length, duplicate: false };
}
