import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { dataPlaneReady } from '../data';
import type { AppDeps, AppEnv } from '../platform/context';
import { one, sql } from '../platform/storage';
import { startupDone } from '../platform/work';

/** One thing readiness needs: resolves when it is usable, throws (or takes too long) when not. */
interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** How long one check may take before it counts as failed: a load balancer's probe must not hang. */
const CHECK_TIMEOUT_MS = 2000;

const checkResult = z.object({ name: z.string(), ok: z.boolean(), message: z.string().optional() });
const readinessBody = z.object({ status: z.enum(['ready', 'not ready']), checks: z.array(checkResult) });

const live = createRoute({
  method: 'get',
  path: '/health/live',
  tags: ['System'],
  summary: 'Liveness (no authentication): the process runs and answers. A load balancer restarts it when not',
  responses: {
    200: {
      description: 'Alive',
      content: { 'application/json': { schema: z.object({ status: z.literal('alive') }) } },
    },
  },
});

const ready = createRoute({
  method: 'get',
  path: '/health/ready',
  tags: ['System'],
  summary:
    'Readiness (no authentication): start-up is done and the control database and the data plane answer. A load balancer sends traffic only while this is 200',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: readinessBody } } },
    503: { description: 'Not ready: which check failed', content: { 'application/json': { schema: readinessBody } } },
  },
});

async function run({ name, check }: ReadinessCheck): Promise<z.infer<typeof checkResult>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { name, ok: true };
  } catch (err) {
    // The message names what failed, never a connection string: checks throw their own plain messages.
    return { name, ok: false, message: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** What readiness checks: start-up done, the control database and the data plane answering. */
function readinessChecks(deps: AppDeps): ReadinessCheck[] {
  // Read at the first probe, when every feature has registered its start-up work.
  let startup: Promise<void> | null = null;
  let started = false;
  return [
    {
      name: 'start-up',
      check: async () => {
        startup ??= startupDone(deps).then(() => {
          started = true;
        });
        await Promise.race([startup, new Promise((next) => setImmediate(next))]);
        if (!started) throw new Error('the server is still starting (migrations, recovery of its jobs)');
      },
    },
    {
      name: 'control database',
      check: async () => {
        await one(deps.storage.db, sql`SELECT 1 AS ok`).catch(() => {
          throw new Error('the control database does not answer');
        });
      },
    },
    { name: 'data plane', check: () => dataPlaneReady(deps) },
  ];
}

/**
 * `/health/live` and `/health/ready` for load balancers and orchestrators (README "Health checks"). Liveness
 * never touches the database, so a database outage does not get every node restarted; readiness runs every
 * check, each within `CHECK_TIMEOUT_MS`. Mount it after every feature has registered its start-up work.
 */
export function healthRoutes(deps: AppDeps) {
  const checks = readinessChecks(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(live, (c) => c.json({ status: 'alive' as const }, 200))
    .openapi(ready, async (c) => {
      c.header('cache-control', 'no-store');
      const results = await Promise.all(checks.map(run));
      const ok = results.every((r) => r.ok);
      return c.json({ status: ok ? ('ready' as const) : ('not ready' as const), checks: results }, ok ? 200 : 503);
    });
}
