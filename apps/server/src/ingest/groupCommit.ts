import type { PreparedRecord, TableBatch } from '../data';
import {
  createTableRow,
  type DatabaseRow,
  dataTaskOptions,
  findTable,
  forgetDatabase,
  packBatch,
  tablesIfDatabaseCurrent,
} from '../data';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { work } from '../platform/work';
import type { IngestWrite } from './tasks';

/**
 * Group commit for record ingestion. Requests queue their records per database. While a database's write
 * is in a background task (its lane, see platform/work.ts), new records wait in the queue; when the
 * write ends, everything that arrived meanwhile goes in the next one, as ONE transaction of its data.
 * Every request's promise settles only after the transaction holding its records commits (synced to
 * disk). One fsync then serves every request that arrived while the previous one ran, and the request
 * loop never writes a row itself.
 */

interface Pending {
  batch: TableBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Queue {
  database: DatabaseRow;
  items: Pending[];
  /** A write of this database is in a worker. */
  writing: boolean;
}

declare module '../platform/context' {
  interface Services {
    /** The app's group commit of ingested records (built by compose.ts). */
    groupCommit: GroupCommitter;
  }
}

export class GroupCommitter {
  private queues = new Map<number, Queue>();

  constructor(private readonly deps: AppDeps) {}

  submit(database: DatabaseRow, table: string, records: PreparedRecord[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(database.id);
      if (!queue) {
        queue = { database, items: [], writing: false };
        this.queues.set(database.id, queue);
      }
      queue.items.push({ batch: { table, records, createTable: true }, resolve, reject });
      if (!queue.writing) {
        queue.writing = true;
        // The rest of this turn's requests join the same write.
        setImmediate(() => this.next(queue));
      }
    });
  }

  /** Writes what the queue holds, then the next batch, until it is empty. */
  private next(queue: Queue): void {
    const items = queue.items.splice(0);
    if (items.length === 0) {
      queue.writing = false;
      this.queues.delete(queue.database.id);
      return;
    }
    void this.commit(queue.database, items).finally(() => this.next(queue));
  }

  private async commit(database: DatabaseRow, items: Pending[]): Promise<void> {
    try {
      // The database may have been deleted since the requests were accepted (its row may even be a few seconds
      // old, data/catalogCache.ts): nothing may recreate its file, nor write into another database that took its
      // id (SQLite reuses ids), so the id and the name must both still match.
      // One query for both: whether the database is still there, and which of the tables already are.
      const ex = this.deps.storage.db;
      const names = [...new Set(items.map((i) => i.batch.table))];
      const rows = await tablesIfDatabaseCurrent(ex, database, names);
      if (!rows) {
        forgetDatabase(this.deps, database);
        throw notFound('database');
      }
      // New tables get their catalog row here (a short write); the task writes only the data.
      for (const table of names) {
        if (rows.has(table)) continue;
        await createTableRow(this.deps, database, table, []).catch(async (err) => {
          // Another writer created it meanwhile: that is what was wanted.
          if (!(await findTable(ex, database.account_id, database.id, table))) throw err;
        });
      }
      // The worker looks the tables up again in the database's lane: a table move may run between.
      const write: IngestWrite = { database, batches: items.map((i) => packBatch(i.batch)) };
      await work(this.deps).run('ingest.write', write, dataTaskOptions(this.deps, database));
      for (const item of items) item.resolve();
    } catch (err) {
      if (items.length === 1) {
        items[0]?.reject(err);
        return;
      }
      // One request's records failed (say, too many columns): write the others alone so only it fails.
      for (const item of items) await this.commit(database, [item]);
    }
  }
}

/** Queues records for the next group commit; resolves once they are durable in the database's file. */
export function commitRecords(
  deps: AppDeps,
  database: DatabaseRow,
  table: string,
  records: PreparedRecord[],
): Promise<void> {
  if (!deps.services) throw new Error('Group commit belongs to an app: these deps have no services.');
  return deps.services.groupCommit.submit(database, table, records);
}
