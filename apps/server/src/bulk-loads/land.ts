import { z } from 'zod';
import type { DatabaseRow, SchemaEntry, TableRow } from '../data';
import { dataPlane, dataTaskOptions, findTable, type PreparedRecord, readTableSchema, refreshCatalog } from '../data';
import type { AppDeps } from '../platform/context';
import { one, run, sql } from '../platform/storage';
import { parseStored } from '../platform/storedJson';
import { work } from '../platform/work';
import { readStage } from './staging';

/**
 * Lands a run's staged rows in its table in ONE transaction of the database's data (data/plane.ts), together with the
 * session's incremental state: either all of it is there afterwards or none of it (a failed run changes
 * nothing), and the cursor can never be saved without its rows or the other way round. `replace` (and a
 * re-sync from scratch) drops the rows and sets the schema inside the same transaction, so readers see the
 * old table or the new one. `merge` upserts each batch by key through the data plane (`DataTx.merge`).
 */

/** Incremental state kept next to the rows; `$` cannot appear in a table name, so nothing collides. */
const STATE = '_svc$bulk_load_state';
/** A session's incremental state (its source's `in` diff) as the target's file keeps it beside the rows. */
const landedStateJson = z.record(z.string(), z.unknown());
const STATE_COLUMNS = `bulk_load_id BIGINT PRIMARY KEY, session_created_at BIGINT NOT NULL, table_name TEXT NOT NULL,
  job_id BIGINT NOT NULL, state_json TEXT NOT NULL`;

export interface Landing {
  database: DatabaseRow;
  table: TableRow;
  /** `merge`: each row replaces the rows of its key (`mergeKeys`, target column names). */
  mode: 'append' | 'replace' | 'merge';
  mergeKeys: string[];
  /** Load from scratch: the table is emptied first, whatever the mode. */
  resync: boolean;
  /** Target columns in the order of the staged values. */
  schema: SchemaEntry[];
  /** Whether each staged row ends with a time value. */
  hasTime: boolean;
  uploadTime: number;
  stagePath: string;
  /** The session whose incremental state lands with the rows; null for a one-off job (it keeps no state). */
  bulkLoadId: number | null;
  sessionCreatedAt: number | null;
  jobId: number;
  nextState: Record<string, unknown>;
  /**
   * The job whose state the run started from (`landedState(...).jobId`), null when there was none. If the
   * saved state moved on since (another run of the session landed in between), landing is refused: the
   * rows read may overlap what that run loaded.
   */
  basedOnJobId: number | null;
}

/** Another run of the session landed while this one was reading. */
export class StateChangedError extends Error {
  override name = 'StateChangedError';
}

const MIN_TIME = -62135596800;
const MAX_TIME = 253402300799;

function toRecord(row: unknown[], l: Landing): PreparedRecord {
  const values: [string, unknown][] = [];
  for (let i = 0; i < l.schema.length; i++) {
    const v = row[i];
    if (v !== null && v !== undefined) values.push([(l.schema[i] as SchemaEntry)[0], v]);
  }
  let time = l.uploadTime;
  if (l.hasTime) {
    const t = Number(row[l.schema.length]);
    // A missing or impossible time takes the run's upload time rather than losing the row.
    if (row[l.schema.length] !== null && Number.isSafeInteger(t) && t >= MIN_TIME && t <= MAX_TIME) time = t;
  }
  return { time, values };
}

/** The state the customer database's data holds for a session: it wins over the control database's copy. */
export async function landedStateHere(
  deps: AppDeps,
  database: DatabaseRow,
  session: { id: number; created_at: number },
): Promise<{ jobId: number; state: Record<string, unknown> } | null> {
  // Ids can be reused after a delete: the creation time tells this session's state from a former one's.
  const row = await dataPlane(deps).transaction(database, async (t) => {
    if (!(await t.hasTable(STATE))) return undefined;
    return one<{ job_id: number; state_json: string }>(
      t.ex,
      sql`SELECT job_id, state_json FROM ${t.table(STATE)} WHERE bulk_load_id = ${session.id} AND session_created_at = ${session.created_at}`,
    );
  });
  return row
    ? { jobId: Number(row.job_id), state: parseStored(landedStateJson, row.state_json, `${STATE}.state_json`) }
    : null;
}

export async function land(deps: AppDeps, l: Landing): Promise<{ inserted: number; replaced: number }> {
  let inserted = 0;
  let replaced = 0;
  const current = (await findTable(deps.storage.db, l.database.account_id, l.database.id, l.table.name)) ?? l.table;
  const now = deps.clock.now().getTime();
  try {
    await dataPlane(deps).transaction(l.database, async (t) => {
      if (l.bulkLoadId !== null) {
        await t.ensureTable(STATE, STATE_COLUMNS);
        const saved = await one<{ job_id: number }>(
          t.ex,
          sql`SELECT job_id FROM ${t.table(STATE)} WHERE bulk_load_id = ${l.bulkLoadId} AND session_created_at = ${l.sessionCreatedAt}`,
        );
        const savedJob = saved ? Number(saved.job_id) : null;
        if (savedJob !== l.basedOnJobId) {
          throw new StateChangedError(
            `Another run of this bulk load session${saved ? ` (job ${savedJob})` : ''} landed while this one was reading, so its rows may overlap; nothing was loaded. Run it again to continue from there.`,
          );
        }
      }
      let table = current;
      if (l.mode === 'replace' || l.resync) {
        await t.dropTable(table.name);
        await t.changeSchema({ ...table, schema_json: '[]' }, l.schema, 'replace');
        table = { ...table, schema_json: JSON.stringify(l.schema) };
      } else {
        const have = new Set(readTableSchema(table.schema_json).map(([n]) => n));
        const missing = l.schema.filter(([n]) => !have.has(n));
        if (missing.length > 0) await t.changeSchema(table, missing, 'append');
      }
      for (const batch of readStage(l.stagePath)) {
        const records = batch.map((row) => toRecord(row, l));
        if (l.mode === 'merge') {
          const merged = await t.merge(table, records, l.mergeKeys, now);
          inserted += merged.inserted;
          replaced += merged.replaced;
        } else {
          await t.append(table, records, now);
          inserted += records.length;
        }
      }
      if (l.bulkLoadId === null) return;
      await run(
        t.ex,
        sql`INSERT INTO ${t.table(STATE)} (bulk_load_id, session_created_at, table_name, job_id, state_json)
            VALUES (${l.bulkLoadId}, ${l.sessionCreatedAt}, ${l.table.name}, ${l.jobId}, ${JSON.stringify(l.nextState)})
            ON CONFLICT (bulk_load_id) DO UPDATE SET session_created_at = excluded.session_created_at,
              table_name = excluded.table_name, job_id = excluded.job_id, state_json = excluded.state_json`,
      );
    });
  } finally {
    // Landed or rolled back, the catalog shows what the data holds (schema and figures).
    await refreshCatalog(deps, l.database);
  }
  return { inserted, replaced };
}

/** `landedStateHere` as a task in the database's lane, in its file's owner on DuckDB (after earlier landings). */
export function landedState(
  deps: AppDeps,
  database: DatabaseRow,
  session: { id: number; created_at: number },
): Promise<{ jobId: number; state: Record<string, unknown> } | null> {
  return work(deps).run('bulk-loads.landed-state', { database, session }, dataTaskOptions(deps, database));
}

/** Lands a run's staged rows in a worker (tasks.ts); a refusal because another run landed meanwhile keeps its class. */
export async function landInWorker(deps: AppDeps, l: Landing): Promise<{ inserted: number; replaced: number }> {
  try {
    return await work(deps).run('bulk-loads.land', l, dataTaskOptions(deps, l.database));
  } catch (err) {
    if (err instanceof Error && err.name === 'StateChangedError') throw new StateChangedError(err.message);
    throw err;
  }
}
