import type { PreparedRecord, TableBatch } from '../data';
import {
  createTableRow,
  type DatabaseRow,
  dataTaskOptions,
  findTable,
  forgetDatabase,
  onDuck,
  packBatch,
  tablesIfDatabaseCurrent,
} from '../data';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';
import { work } from '../platform/work';
import type { IngestWrite } from './tasks';

/**
 * Group commit for record ingestion. Requests queue their records per database. While a database's write
 * is in a background task (its lane, see platform/work.ts), new records wait in the queue; everything that
 * arrived meanwhile goes in the next write, as ONE transaction of its data. Every request's promise settles
 * only after the transaction holding its records commits (synced to disk). One fsync then serves every request
 * that arrived while the previous one ran, and the request loop never writes a row itself.
 *
 * On PostgreSQL two writes of a database may be under way: while one is in its lane, the next is checked (a round
 * trip to the catalog), packed and handed to the lane behind it, so its preparation overlaps the first write, which
 * mostly waits for PostgreSQL, instead of following it (records: about a fifth more events/s in alternating runs).
 * On DuckDB the worker does the write's work itself, and a second group waiting behind it only made groups smaller
 * (more commits for the same postbacks). Groups are handed to the lane in the order they were formed, and the lane
 * runs them in that order.
 */

interface Pending {
  batch: TableBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Queue {
  database: DatabaseRow;
  items: Pending[];
  /** A group is being checked and packed, or is about to be: the next one waits for its hand-over. */
  preparing: boolean;
  /** Groups handed to the database's lane and not yet settled. */
  inLane: number;
}

declare module '../platform/context' {
  interface Services {
    /** The app's group commit of ingested records (built by compose.ts). */
    groupCommit: GroupCommitter;
  }
}

export class GroupCommitter {
  private queues = new Map<number, Queue>();
  /** Writes of one database handed to its lane at once (see above). */
  private readonly maxInLane: number;

  constructor(private readonly deps: AppDeps) {
    this.maxInLane = onDuck(deps) ? 1 : 2;
  }

  submit(database: DatabaseRow, table: string, records: PreparedRecord[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(database.id);
      if (!queue) {
        queue = { database, items: [], preparing: false, inLane: 0 };
        this.queues.set(database.id, queue);
      }
      queue.items.push({ batch: { table, records, createTable: true }, resolve, reject });
      this.schedule(queue);
    });
  }

  /** Starts the next group when one may start: none being prepared, and room in the lane. */
  private schedule(queue: Queue): void {
    if (queue.preparing || queue.inLane >= this.maxInLane || queue.items.length === 0) return;
    queue.preparing = true;
    // The rest of this turn's requests join the same write.
    setImmediate(() => this.next(queue));
  }

  /** Writes what the queue holds as one group; the next group may start once this one is in the lane. */
  private next(queue: Queue): void {
    const items = queue.items.splice(0);
    if (items.length === 0) {
      queue.preparing = false;
      if (queue.inLane === 0) this.queues.delete(queue.database.id);
      return;
    }
    let handed = false;
    const handOver = () => {
      if (handed) return;
      handed = true;
      queue.inLane++;
      queue.preparing = false;
      this.schedule(queue);
    };
    void this.commit(queue.database, items, handOver).finally(() => {
      if (!handed) {
        // Refused before reaching the lane (the database is gone): nothing of it is in the lane.
        handed = true;
        queue.preparing = false;
      } else {
        queue.inLane--;
      }
      if (queue.items.length > 0) this.schedule(queue);
      else if (!queue.preparing && queue.inLane === 0) this.queues.delete(queue.database.id);
    });
  }

  /**
   * Writes one group; `handOver` is called when its write is in the lane (or, for a group that fails and is
   * written request by request, before the first of those).
   */
  private async commit(database: DatabaseRow, items: Pending[], handOver: () => void = () => {}): Promise<void> {
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
      const written = work(this.deps).run('ingest.write', write, dataTaskOptions(this.deps, database));
      handOver();
      await written;
      for (const item of items) item.resolve();
    } catch (err) {
      if (items.length === 1) {
        items[0]?.reject(err);
        return;
      }
      // One request's records failed (say, too many columns): write the others alone so only it fails.
      for (const item of items) await this.commit(database, [item], handOver);
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
