import { monitorEventLoopDelay } from 'node:perf_hooks';
import { launchScenario, seedSegments, shopParentSegment } from '../src/journey-engine/fixture';
import { benchBackend, expectOk, median, report, uploadAndPerform } from './common';
import { journeyBenchApp, shopCustomer } from './journeyApp';

/**
 * What the console's journey screens ask the server for, at audience scale (issue 30 point 6): PROFILES
 * customers (1,000,000 by default, BENCH_PROFILES=…) imported and built into a parent segment, the engine
 * scenario's two-stage journey launched and run once (everyone enters), then each request a screen sends when it
 * opens, timed three times (the median is printed), with the longest the request loop was held meanwhile
 * (monitorEventLoopDelay); then a run after a rebuild of the parent segment that changed nobody's membership. Run: `npx tsx bench/journeyScreens.ts` in apps/server
 * (SVC_BENCH_BACKEND=postgres SVC_TEST_PG_URL=… for PostgreSQL).
 */

const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000_000);
const log = (line: string) => process.stderr.write(`[journey screens] ${line}\n`);

const { bench, call, h } = await journeyBenchApp();

const now = Math.floor(Date.now() / 1000);
const customers = (from: number, count: number) =>
  Array.from({ length: count }, (_, j) => ({ time: now - ((from + j) % 1000), ...shopCustomer(from + j, now) }));

const started = performance.now();
const since = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
await expectOk(call('POST', '/v3/database/create/shop'));
await expectOk(call('POST', '/v3/table/create/shop/customers/log'));
await expectOk(call('POST', '/v3/bulk_import/create/base/shop/customers'));
log(`importing ${PROFILES} customers`);
await uploadAndPerform(bench, 'base', PROFILES, customers);
await expectOk(call('POST', '/v3/bulk_import/commit/base'));
log(`building the parent segment (${since()})`);
const parent = await expectOk(call('POST', '/audiences', { json: shopParentSegment }));
const parentId = String(parent.id);
if ((await bench.app.services.jobs.whenSettled(Number(parent.buildJobId))) !== 'success') {
  throw new Error('The parent segment build failed.');
}
const segments = await seedSegments(h, parentId);
const { journeyId, activationId, stage1 } = await launchScenario(h, parentId, segments);
log(`running the journey: everyone enters (${since()})`);
const t0 = performance.now();
const run = await expectOk(call('POST', `/entities/journeys/${journeyId}/run`));
const runMs = Math.round(performance.now() - t0);
log(`ran in ${runMs} ms: ${JSON.stringify(run.data)}`);

const loop = monitorEventLoopDelay({ resolution: 5 });
async function timed(label: string, method: string, path: string, json?: unknown) {
  const times: number[] = [];
  let loopMax = 0;
  for (let i = 0; i < 3; i++) {
    loop.reset();
    loop.enable();
    const t = performance.now();
    await expectOk(call(method, path, json === undefined ? {} : { json }));
    times.push(performance.now() - t);
    loop.disable();
    loopMax = Math.max(loopMax, loop.max / 1e6);
  }
  const ms = Math.round(median(times));
  log(`${label.padEnd(44)} ${String(ms).padStart(6)} ms  (request loop held at most ${Math.round(loopMax)} ms)`);
  return { label, ms, loopMaxMs: Math.round(loopMax) };
}

const base = `/entities/journeys/${journeyId}`;
const screens = [
  await timed('journeys list', 'GET', '/entities/journeys'),
  await timed('statistics, default window (past 30 days)', 'GET', `${base}/statistics`),
  await timed('profiles, first page', 'GET', `${base}/customers?per_page=50`),
  await timed('profiles of a stage, first page', 'GET', `${base}/customers?per_page=50&stage=${stage1}`),
  await timed('deliveries, first page', 'GET', `${base}/syndications/${activationId}/deliveries?per_page=50`),
  await timed('simulation, a sample of 5', 'POST', `${base}/simulation`, { sample: 5, days: 30 }),
  await timed('estimate of the next run', 'GET', `${base}/estimate`),
];

// A rebuild of the parent segment from the same rows changes what the memberships are evaluated from, not the
// memberships: the next run reads each set's fingerprint, and the members of none (decision 0058).
log(`rebuilding the parent segment from the same rows (${since()})`);
const rebuilt = await expectOk(call('POST', `/audiences/${parentId}/run`));
if ((await bench.app.services.jobs.whenSettled(Number(rebuilt.buildJobId))) !== 'success') {
  throw new Error('The parent segment rebuild failed.');
}
const t1 = performance.now();
const again = (await expectOk(call('POST', `${base}/run`))).data as { membersRead?: number; looked: number };
const afterRebuild = { ms: Math.round(performance.now() - t1), membersRead: again.membersRead, looked: again.looked };
log(
  `${'run after a rebuild that changed nobody'.padEnd(44)} ${String(afterRebuild.ms).padStart(6)} ms  (sets read: ${afterRebuild.membersRead ?? 'all'}, profiles looked at: ${afterRebuild.looked})`,
);
report({
  bench: 'journeyScreens',
  backend: benchBackend(),
  profiles: PROFILES,
  firstRunMs: runMs,
  screens,
  afterRebuild,
});
bench.close();
process.exit(0);
