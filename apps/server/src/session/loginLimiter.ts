import type { AppDeps } from '../platform/context';
import { limits } from '../platform/limits';

/**
 * Sign-in rate limit: at most `limits.loginAttempts` failures per e-mail, and per client address, within
 * `limits.loginWindowMs`. An attempt is counted before the password is checked and forgiven on success,
 * so parallel guesses cannot slip past the limit while the (slow) hash runs.
 */

export { clientAddress } from '../platform/clientAddress';

/** Seconds until another attempt is allowed for this e-mail and address, or null when one is allowed now. */
export function loginRetryAfterSeconds(deps: AppDeps, email: string, address: string): number | null {
  const now = deps.clock.now().getTime();
  const since = now - limits.loginWindowMs;
  const nth = (column: 'email' | 'address', value: string) =>
    deps.db
      .prepare(`SELECT at FROM login_failures WHERE ${column} = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?`)
      .get(value, since, limits.loginAttempts - 1) as { at: number } | undefined;
  // The limit lifts when the oldest of the last `loginAttempts` failures leaves the window.
  const blocking = [nth('email', email), nth('address', address)].filter((r) => r !== undefined);
  if (blocking.length === 0) return null;
  const until = Math.max(...blocking.map((r) => r.at)) + limits.loginWindowMs;
  return Math.max(1, Math.ceil((until - now) / 1000));
}

export function recordLoginAttempt(deps: AppDeps, email: string, address: string): void {
  const now = deps.clock.now().getTime();
  deps.db.prepare('DELETE FROM login_failures WHERE at <= ?').run(now - limits.loginWindowMs);
  deps.db.prepare('INSERT INTO login_failures (email, address, at) VALUES (?, ?, ?)').run(email, address, now);
}

/** A successful sign-in forgives the failures of that e-mail from that address. */
export function forgiveLoginAttempts(deps: AppDeps, email: string, address: string): void {
  deps.db.prepare('DELETE FROM login_failures WHERE email = ? AND address = ?').run(email, address);
}

/** "Try again in 15 minutes." style wording for the 429 message. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
