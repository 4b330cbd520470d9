import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load, report } from './common';

/**
 * Postback (one event per request, answered once durable) and batched record ingestion, over HTTP to a
 * real listening server in its own process, against the same server's no-op route. The load comes from
 * this process over keep-alive connections on the loopback address.
 */

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 64;

const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'server.ts')], {
  cwd: join(here, '..'),
  stdio: ['pipe', 'pipe', 'inherit'],
});
const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
const { port, writeKey } = JSON.parse(line) as { port: number; writeKey: string };

async function phase(name: string, opts: Parameters<typeof load>[0]) {
  await load({ ...opts, durationMs: 1000 }); // warm-up
  const result = await load(opts);
  process.stderr.write(`${name}: ${Math.round(result.perSecond)} req/s (${result.failed} failed)\n`);
  if (result.ok === 0) throw new Error(`${name}: no request succeeded`);
  return result;
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
    connections: CONCURRENCY,
    batchConnections: BATCH_CONCURRENCY,
    secondsPerPhase: SECONDS,
  });
} finally {
  child.stdin?.end();
  child.kill('SIGTERM');
}
