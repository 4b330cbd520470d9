import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from './logger';
import { WorkerCrashed, WorkerPool } from './workerPool';

/**
 * A pool over a minimal worker speaking the pool's protocol: task `where` answers with its thread's id after
 * `ms` milliseconds of its own work (a timer in the worker, so tasks overlap), task `exit` ends the thread.
 */
const worker = `
import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', (msg) => {
  if (msg.type === 'close') parentPort.postMessage({ type: 'closed' });
  if (msg.type !== 'run') return;
  if (msg.task === 'exit') process.exit(3);
  setTimeout(() => parentPort.postMessage({ type: 'done', id: msg.id, ok: true, value: threadId }), msg.args.ms);
});
`;

describe('worker pool: files pinned to one owner', () => {
  let pool: WorkerPool | null = null;
  afterEach(async () => {
    await pool?.close();
  });

  const open = () =>
    new WorkerPool({
      entry: new URL(`data:text/javascript,${encodeURIComponent(worker)}`),
      workerData: null,
      now: () => 0,
      size: 3,
      logger: memoryLogger(),
    });

  it('sends every task naming a file to one worker, even while others are free or its lanes differ', async () => {
    pool = open();
    const p = pool;
    const busy = Array.from({ length: 6 }, (_, i) => p.run<number>('where', { ms: 50 }, { lane: `other:${i}` }));
    const owned = Array.from({ length: 8 }, (_, i) =>
      p.run<number>('where', { ms: 5 }, { owner: 'db1.duckdb', lane: i % 2 === 0 ? 'db1.duckdb' : `read:${i}` }),
    );
    const threads = await Promise.all(owned);
    expect(new Set(threads).size).toBe(1);
    // The others spread over the pool: the pin is per file, not a single worker for everything.
    expect(new Set(await Promise.all(busy)).size).toBeGreaterThan(1);
    expect(await p.run<number>('where', { ms: 0 }, { owner: 'db1.duckdb' })).toBe(threads[0]);
  });

  it('gives the file of a worker that died to the worker the next task picks', async () => {
    pool = open();
    const first = await pool.run<number>('where', { ms: 0 }, { owner: 'db2.duckdb' });
    await expect(pool.run('exit', {}, { owner: 'db2.duckdb' })).rejects.toBeInstanceOf(WorkerCrashed);
    const next = await pool.run<number>('where', { ms: 0 }, { owner: 'db2.duckdb' });
    expect(next).not.toBe(first);
    expect(await pool.run<number>('where', { ms: 0 }, { owner: 'db2.duckdb' })).toBe(next);
  });
});
