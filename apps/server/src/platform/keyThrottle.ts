import type { Context } from 'hono';
import { clientAddress } from './clientAddress';
import type { AppDeps } from './context';
import { tooManyRequests } from './errors';

/**
 * Throttling of bad API keys per client address: after `BAD_KEYS` failed keys within `WINDOW_MS`, every
 * further bad key from that address is answered 429 with Retry-After (rather than 401) until the oldest of
 * those failures leaves the window. Valid keys are never throttled (`platform/auth.ts`): guessing one of
 * 160 random bits is hopeless anyway, and clients behind one NAT, proxy or postback sender must not lose
 * their requests to another client's stale key.
 * Failures are kept in memory per app (its services) (a restart forgets them); at most `MAX_ADDRESSES` addresses are
 * tracked, the longest-quiet ones forgotten first.
 */

export const BAD_KEYS = 20;
export const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 10_000;

/** The app's failures by address (its services, built by compose.ts). */
function failuresOf(deps: AppDeps): Map<string, number[]> {
  if (!deps.services) throw new Error('Key throttling belongs to an app: these deps have no services.');
  return deps.services.badKeys;
}

function recent(deps: AppDeps, address: string, now: number): number[] {
  const list = (failuresOf(deps).get(address) ?? []).filter((at) => at > now - WINDOW_MS);
  return list;
}

/** Throws 429 (with the Retry-After header) while the request's address is throttled. */
export function checkKeyThrottle(deps: AppDeps, c: Context): void {
  const now = deps.clock.now().getTime();
  const list = recent(deps, clientAddress(c, deps.config.trustedProxies), now);
  if (list.length < BAD_KEYS) return;
  const oldest = list[list.length - BAD_KEYS] as number;
  const wait = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
  c.header('Retry-After', String(wait));
  throw tooManyRequests(
    `Too many invalid API keys from this address. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
    wait,
  );
}

/** Counts a key that did not authenticate. */
export function recordBadKey(deps: AppDeps, c: Context): void {
  const now = deps.clock.now().getTime();
  const address = clientAddress(c, deps.config.trustedProxies);
  const map = failuresOf(deps);
  const list = recent(deps, address, now);
  list.push(now);
  map.delete(address);
  map.set(address, list.slice(-BAD_KEYS));
  if (map.size > MAX_ADDRESSES) map.delete(map.keys().next().value as string);
}
