import { monitorEventLoopDelay } from 'node:perf_hooks';
import { launchScenario, seedSegments, shopParentSegment } from '../src/journey-engine/fixture';
import { expectOk, serveBench, uploadAndPerform } from './common';
import { journeyBenchApp, shopCustomer } from './journeyApp';

/**
 * The server the responsiveness bench loads (responsiveness.ts), ready for three heavy pieces of work at
 * once: a bulk import of ROWS rows performed and waiting for its commit, a parent segment over ROWS event
 * rows (PROFILES customers) to rebuild, and a launched two-stage journey whose first run moves all PROFILES
 * profiles. Prints its port, keys and the ids as one JSON line; stops on SIGTERM or when stdin closes.
 */

const ROWS = Number(process.env.BENCH_HEAVY_ROWS ?? 1_000_000);
const PROFILES = Number(process.env.BENCH_HEAVY_PROFILES ?? 100_000);
const log = (line: string) => process.stderr.write(`[heavy server] ${line}\n`);

const { bench, call, h } = await journeyBenchApp();

const now = Math.floor(Date.now() / 1000);
function eventRows(from: number, count: number) {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    return {
      time: now - (i % 1000),
      ...shopCustomer(i % PROFILES, now),
      action: i % 3 ? 'view' : 'click',
      amount: (i % 1000) * 0.25,
    };
  });
}

/** Uploads ROWS rows into a session of `table` and performs it. */
async function performedSession(name: string, table: string) {
  await expectOk(call('POST', `/v3/table/create/shop/${table}/log`));
  await expectOk(call('POST', `/v3/bulk_import/create/${name}/shop/${table}`));
  await uploadAndPerform(bench, name, ROWS, eventRows);
}

await expectOk(call('POST', '/v3/database/create/shop'));
log(`importing ${ROWS} event rows of ${PROFILES} customers`);
await performedSession('base', 'customers');
await expectOk(call('POST', '/v3/bulk_import/commit/base'));
log('building the parent segment');
const parent = await expectOk(call('POST', '/audiences', { json: shopParentSegment }));
const parentId = String(parent.id);
for (;;) {
  const shown = await expectOk(call('GET', `/audiences/${parentId}`));
  if (shown.population !== null && shown.population !== undefined) break;
  await new Promise((r) => setTimeout(r, 200));
}
log('launching the journey');
const segments = await seedSegments(h, parentId);
const { journeyId } = await launchScenario(h, parentId, segments);
log(`performing a second session of ${ROWS} rows (committed by the bench)`);
await performedSession('big', 'events');
// Postbacks of the probe go to another database: the commit holds the writer lane of 'shop' meanwhile.
await expectOk(call('POST', '/v3/database/create/live'));
await expectOk(call('POST', '/v3/table/create/live/probe/log'));

// The request loop's own view: how late its timers ran while the bench loaded it (printed at exit).
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

serveBench(
  bench,
  (port) => ({
    port,
    masterKey: bench.account.masterKey,
    writeKey: bench.account.writeOnlyKey,
    parentId,
    journeyId,
    rows: ROWS,
    profiles: PROFILES,
  }),
  () => {
    loopDelay.disable();
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    log(
      `event loop delay: p50 ${ms(loopDelay.percentile(50))} ms, p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms`,
    );
  },
);
