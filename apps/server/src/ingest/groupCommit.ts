import type { DatabaseRow } from '../data/catalog';
import { type PreparedRecord, type TableBatch, writeBatches } from '../data/tableStore';
import type { AppDeps } from '../platform/context';
import { notFound } from '../platform/errors';

/**
 * Group commit for single-record ingestion. Requests queue their records per database; once per event
 * loop turn (`setImmediate`) each database's queue is written in ONE transaction of its file, and every
 * request's promise settles only after that transaction commits. One fsync then serves every request
 * that arrived in the same turn, which is what makes one-event-per-request ingestion fast.
 */

interface Pending {
  batch: TableBatch;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Queue {
  database: DatabaseRow;
  items: Pending[];
}

class GroupCommitter {
  private queues = new Map<number, Queue>();
  private scheduled = false;

  constructor(private readonly deps: AppDeps) {}

  submit(database: DatabaseRow, table: string, records: PreparedRecord[]): Promise<void> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(database.id);
      if (!queue) {
        queue = { database, items: [] };
        this.queues.set(database.id, queue);
      }
      queue.items.push({ batch: { table, records, createTable: true }, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queues = [...this.queues.values()];
    this.queues.clear();
    for (const queue of queues) this.commit(queue);
  }

  private commit({ database, items }: Queue): void {
    // The database may have been deleted since the requests were accepted: nothing may recreate its file.
    const still = this.deps.db
      .prepare('SELECT 1 FROM databases WHERE id = ? AND account_id = ?')
      .get(database.id, database.account_id);
    if (!still) {
      for (const item of items) item.reject(notFound('database'));
      return;
    }
    try {
      writeBatches(
        this.deps,
        database,
        items.map((i) => i.batch),
      );
      for (const item of items) item.resolve();
    } catch (err) {
      if (items.length === 1) {
        items[0]?.reject(err);
        return;
      }
      // One request's records failed (say, too many columns): write the others alone so only it fails.
      for (const item of items) this.commit({ database, items: [item] });
    }
  }
}

const committers = new WeakMap<AppDeps, GroupCommitter>();

/** Queues records for the next group commit; resolves once they are durable in the database's file. */
export function commitRecords(
  deps: AppDeps,
  database: DatabaseRow,
  table: string,
  records: PreparedRecord[],
): Promise<void> {
  let committer = committers.get(deps);
  if (!committer) {
    committer = new GroupCommitter(deps);
    committers.set(deps, committer);
  }
  return committer.submit(database, table, records);
}
