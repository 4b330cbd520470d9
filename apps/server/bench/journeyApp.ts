import { type Harness, withBody } from '../src/testing/harness';
import { benchApp } from './common';

/** A bench app the journey fixtures (src/journey-engine/fixture.ts) can drive as they drive a test harness. */
export async function journeyBenchApp() {
  const bench = await benchApp();
  const call = (method: string, path: string, opts: { json?: unknown; form?: Record<string, string> } = {}) =>
    bench.call(method, path, withBody(opts));
  // The journey fixtures speak to a test harness; these are the parts they use.
  const h = { call, deps: bench.deps, app: bench.app, admin: bench.account } as unknown as Harness;
  return { bench, call, h };
}

const DAY_S = 86_400;

/**
 * The shop customer `p` of the journey scenario's parent segment (fixture.ts shopParentSegment), its times in
 * seconds relative to `now`: a third VIPs, a quarter engaged two days ago, a tenth bought yesterday.
 */
export function shopCustomer(p: number, now: number) {
  return {
    customer_id: `C${p}`,
    vip: p % 3 === 0 ? 1 : 0,
    engaged_at: p % 4 === 0 ? now - 2 * DAY_S : 0,
    bought_at: p % 10 === 0 ? now - DAY_S : 0,
    unsub_at: 0,
  };
}
