import type { DatabaseRow, TableRow } from '../data/catalog';
import { findTable } from '../data/catalog';
import type { SchemaEntry } from '../data/columns';
import { closeDataFile, dataLane } from '../data/dataFiles';
import { changeSchema, dropDataTable, openDataFile, type PreparedRecord, writeBatches } from '../data/tableStore';
import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { readStage } from './staging';

/**
 * Lands a run's staged rows in its table in ONE transaction of the database's file, together with the
 * session's incremental state: either all of it is there afterwards or none of it (a failed run changes
 * nothing), and the cursor can never be saved without its rows or the other way round. `replace` drops
 * the rows and sets the schema inside the same transaction, so readers see the old table or the new one.
 */

/** Incremental state kept next to the rows; `$` cannot appear in a table name, so nothing collides. */
const STATE = '"_svc$bulk_load_state"';

export interface Landing {
  database: DatabaseRow;
  table: TableRow;
  mode: 'append' | 'replace';
  /** Target columns in the order of the staged values. */
  schema: SchemaEntry[];
  /** Whether each staged row ends with a time value. */
  hasTime: boolean;
  uploadTime: number;
  stagePath: string;
  bulkLoadId: number;
  sessionCreatedAt: number;
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

/** The state the data file holds for a session: it wins over the control database's copy. */
export async function landedState(
  deps: AppDeps,
  database: DatabaseRow,
  session: { id: number; created_at: number },
): Promise<{ jobId: number; state: Record<string, unknown> } | null> {
  const f = openDataFile(deps, database);
  const exists = f.db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_svc$bulk_load_state'")
    .get();
  if (!exists) return null;
  // Ids can be reused after a delete: the creation time tells this session's state from a former one's.
  const row = f.db
    .prepare(`SELECT job_id, state_json FROM ${STATE} WHERE bulk_load_id = ? AND session_created_at = ?`)
    .get(session.id, session.created_at) as { job_id: number; state_json: string } | undefined;
  return row ? { jobId: row.job_id, state: JSON.parse(row.state_json) as Record<string, unknown> } : null;
}

export function land(deps: AppDeps, l: Landing): { inserted: number } {
  const f = openDataFile(deps, l.database);
  f.db.exec(`CREATE TABLE IF NOT EXISTS ${STATE} (
    bulk_load_id INTEGER PRIMARY KEY,
    session_created_at INTEGER NOT NULL,
    table_name TEXT NOT NULL,
    job_id INTEGER NOT NULL,
    state_json TEXT NOT NULL
  )`);
  let inserted = 0;
  try {
    f.db.transaction(() => {
      const saved = f.db
        .prepare(`SELECT job_id FROM ${STATE} WHERE bulk_load_id = ? AND session_created_at = ?`)
        .get(l.bulkLoadId, l.sessionCreatedAt) as { job_id: number } | undefined;
      if ((saved?.job_id ?? null) !== l.basedOnJobId) {
        throw new StateChangedError(
          `Another run of this bulk load session${saved ? ` (job ${saved.job_id})` : ''} landed while this one was reading, so its rows may overlap; nothing was loaded. Run it again to continue from there.`,
        );
      }
      // The table store's own transactions nest inside this one as savepoints.
      if (l.mode === 'replace') {
        dropDataTable(deps, l.database, l.table.name);
        changeSchema(deps, l.database, l.table, l.schema, 'replace');
      } else {
        const current = findTable(deps.db, l.database.account_id, l.database.id, l.table.name) ?? l.table;
        const have = new Set((JSON.parse(current.schema_json) as SchemaEntry[]).map(([n]) => n));
        const missing = l.schema.filter(([n]) => !have.has(n));
        if (missing.length > 0) changeSchema(deps, l.database, current, missing, 'append');
      }
      for (const batch of readStage(l.stagePath)) {
        const records = batch.map((row) => toRecord(row, l));
        inserted += writeBatches(deps, l.database, [{ table: l.table.name, records }]).inserted;
      }
      f.db
        .prepare(
          `INSERT INTO ${STATE} (bulk_load_id, session_created_at, table_name, job_id, state_json) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (bulk_load_id) DO UPDATE SET session_created_at = excluded.session_created_at,
             table_name = excluded.table_name, job_id = excluded.job_id, state_json = excluded.state_json`,
        )
        .run(l.bulkLoadId, l.sessionCreatedAt, l.table.name, l.jobId, JSON.stringify(l.nextState));
    })();
  } catch (err) {
    // The rows were rolled back but the catalog already counted them: reopening the file recounts.
    closeDataFile(deps, l.database);
    openDataFile(deps, l.database);
    throw err;
  }
  return { inserted };
}

/** Landing runs in a background worker, in the lane of the database's file. */
export const bulkLoadTasks = {
  'bulk-loads.land': (ctx: TaskContext, l: Landing) => land(ctx.deps, l),
};

/** Lands a run's staged rows in a worker; a refusal because another run landed meanwhile keeps its class. */
export async function landInWorker(deps: AppDeps, l: Landing): Promise<{ inserted: number }> {
  try {
    return await work(deps).run<{ inserted: number }>('bulk-loads.land', l, { lane: dataLane(deps, l.database) });
  } catch (err) {
    if (err instanceof Error && err.name === 'StateChangedError') throw new StateChangedError(err.message);
    throw err;
  }
}
