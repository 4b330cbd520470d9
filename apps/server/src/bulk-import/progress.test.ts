import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { progressLine, throttledProgress } from './performJob';
import { bulkDeps, databaseAndTable, ok, show, uploadRows } from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const rows = (n: number, from: number) => Array.from({ length: n }, (_, i) => ({ time: 1700000000 + from + i, n: i }));
const cmdout = async (jobId: number) =>
  ((await ok(h.call('GET', `/v3/job/show/${jobId}`))).debug as { cmdout: string | null }).cmdout ?? '';

describe('perform progress in the job output', () => {
  const setUp = async () => {
    await databaseAndTable(h, 'shop', 'events');
    await ok(h.call('POST', '/v3/bulk_import/create/s1/shop/events'));
    await uploadRows(h, 's1', 'p1', rows(3, 0));
    await uploadRows(h, 's1', 'p2', rows(4, 10));
    await uploadRows(h, 's1', 'p3', rows(5, 20));
  };
  /** The parts done and records of every progress line, in order. */
  const progress = (out: string) =>
    [...out.matchAll(/perform progress: (\d+)\/3 parts, (\d+) records/g)].map((m) => [Number(m[1]), Number(m[2])]);

  it('writes parts done of all and records so far while it runs, and the whole count at the end', async () => {
    await setUp();
    // Hold the first part that is read through; log every report.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stops = 0;
    bulkDeps(h).bulkImport = {
      progressEveryMs: 0,
      partsAtOnce: 1,
      crashPoint: (point) => (point === 'perform:staging' && stops++ === 0 ? held : undefined),
    };
    const jobId = (await ok(h.call('POST', '/v3/bulk_import/perform/s1'))).job_id as number;
    await h.app.services.jobs.whenStarted(jobId);
    await expect.poll(() => cmdout(jobId)).toContain('perform progress: 0/3 parts, 3 records');
    expect(await cmdout(jobId)).toContain('perform progress: 0/3 parts, 0 records');
    expect(await cmdout(jobId)).not.toContain('1/3 parts');
    release();
    expect(await h.app.services.jobs.whenSettled(jobId)).toBe('success');
    const out = await cmdout(jobId);
    expect(out).toContain('perform progress: 1/3 parts, 3 records');
    expect(out).toContain('perform progress: 2/3 parts, 7 records');
    expect(out).toContain('perform progress: 3/3 parts, 12 records');
  });

  it('reads parts at the same time, counting each part once they are all done', async () => {
    await setUp();
    // Every part waits at its end until two are waiting at once: only parts read in parallel get there.
    let arrived = 0;
    let bothThere = () => {};
    const together = new Promise<void>((resolve) => {
      bothThere = resolve;
    });
    bulkDeps(h).bulkImport = {
      progressEveryMs: 0,
      partsAtOnce: 2,
      crashPoint: (point) => {
        if (point !== 'perform:staging') return;
        if (++arrived === 2) bothThere();
        return together;
      },
    };
    const jobId = (await ok(h.call('POST', '/v3/bulk_import/perform/s1'))).job_id as number;
    expect(await h.app.services.jobs.whenSettled(jobId)).toBe('success');
    expect(arrived).toBe(3);
    const lines = progress(await cmdout(jobId));
    expect(lines[0]).toEqual([0, 0]);
    expect(lines[lines.length - 1]).toEqual([3, 12]);
    // Parts done and records only ever grow.
    for (let i = 1; i < lines.length; i++) {
      expect(lines[i]?.[0]).toBeGreaterThanOrEqual(lines[i - 1]?.[0] as number);
      expect(lines[i]?.[1]).toBeGreaterThanOrEqual(lines[i - 1]?.[1] as number);
    }
    expect(await show(h, 's1')).toMatchObject({ status: 'ready', valid_records: 12, valid_parts: 3 });
  });
});

describe('throttledProgress', () => {
  it('logs the first report, then at most one per interval, and always the last one', async () => {
    const lines: string[] = [];
    let t = 0;
    const report = throttledProgress(
      (l) => lines.push(l),
      1000,
      () => t,
    );
    report({ parts_done: 0, parts_total: 2, records: 0 });
    t = 500;
    report({ parts_done: 0, parts_total: 2, records: 10 });
    t = 1200;
    report({ parts_done: 1, parts_total: 2, records: 20 });
    t = 1300;
    report({ parts_done: 2, parts_total: 2, records: 30 });
    report({ parts_done: 2, parts_total: 2, records: 30 });
    expect(lines).toEqual([
      progressLine({ parts_done: 0, parts_total: 2, records: 0 }),
      'perform progress: 1/2 parts, 20 records',
      'perform progress: 2/2 parts, 30 records',
    ]);
  });
});
