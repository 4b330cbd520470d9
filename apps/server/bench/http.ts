import { readFileSync } from 'node:fs';
import { load, report, startServerProcess } from './common';

/**
 * Postback (one event per request, answered once durable) and batched record ingestion, over HTTP to a
 * real listening server in its own process, against the same server's no-op route. The load comes from
 * this process over keep-alive connections on the loopback address.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 64;

// BENCH_CPU_PROF_DIR=<dir>: the server writes V8 CPU profiles there (one per thread) when it stops.
const profile = process.env.BENCH_CPU_PROF_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
  : [];
const {
  child,
  info: { port, writeKey },
} = await startServerProcess<{ port: number; writeKey: string }>('server.ts', profile);

/**
 * CPU time the server process has used so far, all its threads (Linux `/proc`), in microseconds; null elsewhere.
 * On a machine shared with other work, CPU per request is the figure that does not depend on the neighbours.
 */
function serverCpuMicros(): number | null {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

async function phase(name: string, opts: Parameters<typeof load>[0]) {
  await load({ ...opts, durationMs: 1000 }); // warm-up
  const cpuBefore = serverCpuMicros();
  const from = process.hrtime.bigint() / 1000n;
  const result = await load(opts);
  const cpuAfter = serverCpuMicros();
  // The phase's window on the monotonic clock the profiles' timestamps use, to split them by phase.
  if (profile.length > 0) process.stderr.write(`${name} window µs: ${from} ${process.hrtime.bigint() / 1000n}\n`);
  const cpuPerRequest = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / result.ok;
  const cpu = cpuPerRequest === null ? '' : `, server CPU ${Math.round(cpuPerRequest)} µs/request`;
  process.stderr.write(`${name}: ${Math.round(result.perSecond)} req/s (${result.failed} failed)${cpu}\n`);
  if (result.ok === 0) throw new Error(`${name}: no request succeeded`);
  return { ...result, cpuPerRequest };
}

try {
  const duration = SECONDS * 1000;
  const noop = await phase('no-op', {
    port,
    method: 'GET',
    path: '/v3/system/server_status',
    concurrency: CONCURRENCY,
    durationMs: duration,
  });
  const postback = await phase('postback', {
    port,
    method: 'POST',
    path: '/postback/v3/event/bench/postback_events',
    headers: { 'content-type': 'application/json', 'x-svc-write-key': writeKey },
    body: JSON.stringify({ user: 'u123', action: 'purchase', amount: 12.5, page: '/checkout' }),
    concurrency: CONCURRENCY,
    durationMs: duration,
  });
  const events = Array.from({ length: 500 }, (_, i) => ({
    user: `u${i}`,
    action: i % 3 ? 'view' : 'click',
    amount: i * 0.25,
    page: `/p/${i % 50}`,
  }));
  const BATCH_CONCURRENCY = 8;
  const ingest = await phase('ingestion', {
    port,
    method: 'POST',
    path: '/bench/sdk_events',
    headers: { 'content-type': 'application/vnd.treasuredata.v1+json', authorization: `SVC1 ${writeKey}` },
    body: JSON.stringify({ events }),
    concurrency: BATCH_CONCURRENCY,
    durationMs: duration,
  });
  report({
    noopRequestsPerSecond: noop.perSecond,
    postbackEventsPerSecond: postback.perSecond,
    postbackRatio: postback.perSecond / noop.perSecond,
    postbackFailed: postback.failed,
    ingestionEventsPerSecond: ingest.perSecond * events.length,
    ingestionFailed: ingest.failed,
    noopServerCpuMicrosPerRequest: noop.cpuPerRequest,
    postbackServerCpuMicrosPerRequest: postback.cpuPerRequest,
    ingestionServerCpuMicrosPerEvent: ingest.cpuPerRequest === null ? null : ingest.cpuPerRequest / events.length,
    connections: CONCURRENCY,
    batchConnections: BATCH_CONCURRENCY,
    secondsPerPhase: SECONDS,
  });
} finally {
  child.stdin?.end();
  child.kill('SIGTERM');
}
