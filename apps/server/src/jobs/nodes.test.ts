import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAccount } from '../accounts';
import type { AppDeps } from '../platform/context';
import { claimSlot, one, sql } from '../platform/storage';
import type { JobKind } from './jobKind';
import type { JobRow } from './jobStore';
import { JobRunner, type RunnerOptions } from './runner';
import { bareDeps } from './testing/bareDeps';

/**
 * Several nodes on one database: each node is a JobRunner of its own on the same storage (the runner alone,
 * without an app around it), running a `probe` kind whose jobs wait until the test releases them.
 */

interface Probe {
  /** Job ids in the order they started, with the node that ran them. */
  started: { id: number; node: string }[];
  /** How many probe jobs run at once over every node, and the most seen. */
  running: number;
  most: number;
  aborted: number[];
  release(id: number): void;
  /** Resolves with the next job that starts (at once if one started and was not taken yet). */
  nextStart(): Promise<number>;
}

function probe(): Probe & { kind(node: string): JobKind } {
  const gates = new Map<number, () => void>();
  const waiting: ((id: number) => void)[] = [];
  const fresh: number[] = [];
  const p = {
    started: [] as { id: number; node: string }[],
    running: 0,
    most: 0,
    aborted: [] as number[],
    release(id: number) {
      p.running--;
      gates.get(id)?.();
    },
    nextStart() {
      const id = fresh.shift();
      if (id !== undefined) return Promise.resolve(id);
      return new Promise<number>((resolve) => waiting.push(resolve));
    },
    kind(node: string): JobKind {
      return {
        types: ['probe'],
        run: (job: JobRow, ctx) =>
          new Promise((resolve, reject) => {
            p.started.push({ id: job.id, node });
            p.running++;
            p.most = Math.max(p.most, p.running);
            gates.set(job.id, () => resolve({ numRecords: 1 }));
            ctx.signal.addEventListener('abort', () => {
              p.aborted.push(job.id);
              reject(ctx.signal.reason);
            });
            const w = waiting.shift();
            if (w) w(job.id);
            else fresh.push(job.id);
          }),
      };
    },
  };
  return p;
}

let deps: AppDeps;
let admin: NewAccount;
let close: () => Promise<void>;
const runners: JobRunner[] = [];

beforeEach(async () => {
  ({ deps, admin, close } = await bareDeps());
});

afterEach(async () => {
  for (const r of runners.splice(0)) r.stop();
  await close();
});

function node(nodeId: string, kind: JobKind, limits: Partial<RunnerOptions> = {}): JobRunner {
  const runner = new JobRunner(deps, {
    slots: 2,
    overflow: 0,
    perAccount: 2,
    perUser: 2,
    timeLimitSeconds: 60,
    nodeId,
    pollMs: 20,
    ...limits,
  });
  runner.register(kind);
  runners.push(runner);
  return runner;
}

const job = () => ({
  accountId: admin.accountId,
  userId: admin.userId,
  type: 'probe',
  database: null,
  query: null,
});

const stored = async (id: number) =>
  (await one<{ status: string; runner: string | null; stderr: string | null }>(
    deps.storage.db,
    sql`SELECT status, runner, stderr FROM jobs WHERE id = ${id}`,
  )) as { status: string; runner: string | null; stderr: string | null };

describe('jobs across nodes', () => {
  it('runs every queued job exactly once, within the per-user limit counted over all nodes', async () => {
    const p = probe();
    const a = node('node-a', p.kind('node-a'));
    const b = node('node-b', p.kind('node-b'));
    await Promise.all([a.start(), b.start()]);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await (i % 2 ? a : b).enqueue(job())).id);
    for (let done = 0; done < ids.length; done++) {
      const id = await p.nextStart();
      p.release(id);
      expect(await a.whenSettled(id)).toBe('success');
    }
    // Each node has two slots, but the user may run two jobs at once over both.
    expect(p.most).toBeLessThanOrEqual(2);
    expect(p.started.map((s) => s.id).sort((x, y) => x - y)).toEqual(ids);
    for (const s of p.started) expect((await stored(s.id)).runner).toBe(s.node);
  });

  it('kills a job another node runs: the owner ends it and aborts its work', async () => {
    const p = probe();
    const a = node('node-a', p.kind('node-a'));
    const b = node('node-b', p.kind('node-b'), { slots: 0 });
    await Promise.all([a.start(), b.start()]);
    const { id } = await a.enqueue(job());
    expect(await p.nextStart()).toBe(id);
    expect(await b.kill(admin.accountId, id)).toBe('running');
    // The node that asked learns the end from the database.
    expect(await b.whenSettled(id)).toBe('killed');
    expect(p.aborted).toEqual([id]);
    expect(await stored(id)).toMatchObject({ status: 'killed', runner: 'node-a', stderr: 'Killed on request.' });
  });

  it("recovers only its own jobs after a restart: another node's running job is left alone", async () => {
    const p = probe();
    const a = node('node-a', p.kind('node-a'));
    await a.start();
    const { id } = await a.enqueue(job());
    expect(await p.nextStart()).toBe(id);
    // Node A stops as a crash would: its job stays running in the database.
    a.stop();
    const b = node('node-b', probe().kind('node-b'));
    await b.start();
    expect((await stored(id)).status).toBe('running');
    const again = node('node-a', probe().kind('node-a'));
    await again.start();
    expect(await stored(id)).toMatchObject({
      status: 'error',
      stderr: 'The server restarted while this job was running; issue it again.',
    });
  });
});

describe('schedule slots', () => {
  it('lets exactly one claim of a firing win', async () => {
    const db = deps.storage.db;
    const claims = await Promise.all([claimSlot(db, 'probe:1', 1000), claimSlot(db, 'probe:1', 1000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimSlot(db, 'probe:1', 2000)).toBe(true);
    expect(await claimSlot(db, 'probe:2', 1000)).toBe(true);
  });
});
