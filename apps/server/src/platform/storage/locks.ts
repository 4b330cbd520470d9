import type { PostgresStorage } from './postgres';
import type { Storage } from './types';

/**
 * Named locks over every node of one database, for work that must never overlap but is longer than a
 * transaction (a journey's run, a delivery sending over the network). On PostgreSQL a session advisory lock on
 * a connection held for the work: another node waits or gives up, and a node that dies frees it with its
 * connection. Within a node the holders of a name queue first, so waiting never takes more than one pooled
 * connection per name. A SQLite file is served by one process, where that queue is the whole lock.
 */

type Queues = Map<string, Promise<void>>;
/** Each name's queue (its tail) per SQLite file; a PostgreSQL node's are on its storage (`lockQueues`). */
const perFile = new Map<string, Queues>();

function queuesOf(storage: Storage): Queues {
  if (storage.backend === 'postgres') return (storage as PostgresStorage).lockQueues;
  let queues = perFile.get(storage.describe);
  if (!queues) {
    queues = new Map();
    perFile.set(storage.describe, queues);
  }
  return queues;
}

type Release = () => Promise<void>;

/** Joins this node's queue for `name`; null when `wait` is false and someone holds it. */
async function queueFor(storage: Storage, name: string, wait: boolean): Promise<Release | null> {
  const queues = queuesOf(storage);
  const before = queues.get(name);
  if (before && !wait) return null;
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  const tail = (before ?? Promise.resolve()).then(() => mine);
  queues.set(name, tail);
  await before;
  return async () => {
    done();
    if (queues.get(name) !== tail) return;
    queues.delete(name);
    if (queues.size === 0 && storage.backend !== 'postgres') perFile.delete(storage.describe);
  };
}

/** Takes the advisory lock of `name` on a connection of its own; null when `wait` is false and it is taken. */
async function advisoryLock(storage: PostgresStorage, name: string, wait: boolean): Promise<Release | null> {
  const client = await storage.pool.connect();
  try {
    if (wait) {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [name]);
    } else {
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok',
        [name],
      );
      if (!rows[0]?.ok) {
        client.release();
        return null;
      }
    }
  } catch (err) {
    client.release(true);
    throw err;
  }
  return async () => {
    try {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
      client.release();
    } catch {
      // Dropping the connection ends its session, and the lock with it.
      client.release(true);
    }
  };
}

async function acquire(storage: Storage, name: string, wait: boolean): Promise<Release | null> {
  const local = await queueFor(storage, name, wait);
  if (!local || storage.backend !== 'postgres') return local;
  try {
    const shared = await advisoryLock(storage as PostgresStorage, name, wait);
    if (!shared) {
      await local();
      return null;
    }
    return async () => {
      await shared();
      await local();
    };
  } catch (err) {
    await local();
    throw err;
  }
}

/** Runs `fn` holding the lock `name`, waiting for it first while another holds it. */
export async function withLock<T>(storage: Storage, name: string, fn: () => Promise<T>): Promise<T> {
  const release = (await acquire(storage, name, true)) as Release;
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Runs `fn` holding the lock `name` if nobody holds it now; otherwise answers `{ ran: false }` at once. */
export async function tryLock<T>(
  storage: Storage,
  name: string,
  fn: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const release = await acquire(storage, name, false);
  if (!release) return { ran: false };
  try {
    return { ran: true, value: await fn() };
  } finally {
    await release();
  }
}
