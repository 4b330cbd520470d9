import { Agent, request } from 'node:http';
import { report, startServerProcess } from './common';

/**
 * Responsiveness under heavy work (issue "Heavy work off the request loop", point 2; issue 28 point 7): a real
 * server in its own process (heavyServer.ts) commits a 1,000,000-row bulk import, rebuilds a parent segment over
 * 1,000,000 rows, runs a query job over those 1,000,000 rows and a journey over 100,000 profiles, all at once
 * (BENCH_HEAVY_ROWS and BENCH_HEAVY_PROFILES set the sizes), while three probes each send a
 * request every 50 ms: a health check, a console-style read (the tables of a database) and a postback.
 * Every probe's latency is kept; the figures are those of the requests sent while the heavy work ran.
 */

const EVERY_MS = 50;

const { child, info: server } = await startServerProcess<{
  port: number;
  masterKey: string;
  writeKey: string;
  parentId: string;
  journeyId: string;
  rows: number;
  profiles: number;
}>('heavyServer.ts');

interface Sample {
  sentAt: number;
  ms: number;
  status: number;
}

function send(
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });
}

/** Sends a request every EVERY_MS (not waiting for answers) until stopped; keeps every latency. */
function probe(method: string, path: string, headers: Record<string, string>, body?: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const samples: Sample[] = [];
  const timer = setInterval(() => {
    const sentAt = performance.now();
    void send(agent, method, path, headers, body).then((r) =>
      samples.push({ sentAt, ms: performance.now() - sentAt, status: r.status }),
    );
  }, EVERY_MS);
  return {
    samples,
    stop: () => {
      clearInterval(timer);
      agent.destroy();
    },
  };
}

function figures(samples: Sample[], from: number, to: number) {
  const window = samples.filter((s) => s.sentAt >= from && s.sentAt <= to);
  const ms = window.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0;
  return {
    requests: window.length,
    failed: window.filter((s) => s.status !== 200).length,
    p50Ms: Math.round(at(0.5) * 10) / 10,
    p99Ms: Math.round(at(0.99) * 10) / 10,
    maxMs: Math.round((ms[ms.length - 1] ?? 0) * 10) / 10,
  };
}

const master = { authorization: `SVC1 ${server.masterKey}` };
const heavyAgent = new Agent({ keepAlive: true });
const timed = async (name: string, method: string, path: string) => {
  const t0 = performance.now();
  const r = await send(heavyAgent, method, path, master);
  if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
  return { name, seconds: (performance.now() - t0) / 1000, body: r.text };
};

try {
  const probes = {
    health: probe('GET', '/v3/system/server_status', {}),
    consoleRead: probe('GET', '/v3/table/list/shop', master),
    postback: probe(
      'POST',
      '/postback/v3/event/live/probe',
      { 'content-type': 'application/json', 'x-svc-write-key': server.writeKey },
      JSON.stringify({ user: 'probe', action: 'ping' }),
    ),
  };
  await new Promise((r) => setTimeout(r, 1000));
  const from = performance.now();
  /** Polls a job until it ends; its time from `t0`. */
  const settled = async (name: string, jobId: string, t0: number) => {
    for (;;) {
      const s = await send(heavyAgent, 'GET', `/v3/job/status/${jobId}`, master);
      const status = (JSON.parse(s.text) as { status: string }).status;
      if (status === 'success') break;
      if (status === 'error' || status === 'killed') throw new Error(`The ${name} ended ${status}.`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { name, seconds: (performance.now() - t0) / 1000, body: '' };
  };
  const [commit, run, build, query] = await Promise.all([
    timed('commit', 'POST', '/v3/bulk_import/commit/big'),
    timed('journey run', 'POST', `/entities/journeys/${server.journeyId}/run`),
    (async () => {
      const t0 = performance.now();
      const started = await timed('build', 'POST', `/audiences/${server.parentId}/run`);
      return settled('parent segment build', (JSON.parse(started.body) as { buildJobId: string }).buildJobId, t0);
    })(),
    (async () => {
      const t0 = performance.now();
      const sql = 'SELECT action, COUNT(*), SUM(amount), COUNT(DISTINCT customer_id) FROM customers GROUP BY action';
      const started = await send(
        heavyAgent,
        'POST',
        '/v3/job/issue/presto/shop',
        { ...master, 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ query: sql }).toString(),
      );
      if (started.status !== 200) throw new Error(`query: HTTP ${started.status} ${started.text.slice(0, 200)}`);
      return settled('query job', (JSON.parse(started.text) as { job_id: string }).job_id, t0);
    })(),
  ]);
  const to = performance.now();
  await new Promise((r) => setTimeout(r, 500));
  for (const p of Object.values(probes)) p.stop();
  const ranRun = JSON.parse(run.body) as { data: { profiles: number; events: number } };
  const result = {
    rows: server.rows,
    profiles: server.profiles,
    heavySeconds: Math.round((to - from) / 100) / 10,
    commitSeconds: Math.round(commit.seconds * 10) / 10,
    buildSeconds: Math.round(build.seconds * 10) / 10,
    querySeconds: Math.round(query.seconds * 10) / 10,
    journeyRunSeconds: Math.round(run.seconds * 10) / 10,
    journeyRunProfiles: ranRun.data.profiles,
    journeyRunEvents: ranRun.data.events,
    health: figures(probes.health.samples, from, to),
    consoleRead: figures(probes.consoleRead.samples, from, to),
    postback: figures(probes.postback.samples, from, to),
  };
  process.stderr.write(`${JSON.stringify(result, null, 2)}\n`);
  report(result);
} finally {
  heavyAgent.destroy();
  child.stdin?.end();
  child.kill('SIGTERM');
}
