import type { Context, MiddlewareHandler } from 'hono';
import { findLiveKey, type KeyRow, recallKey, rememberKey, touchKey, verifiedGeneration } from './apiKeys';
import type { AppDeps, AppEnv } from './context';
import { forbidden, unauthorized } from './errors';
import { checkKeyThrottle, recordBadKey } from './keyThrottle';

/** Who is calling, as every feature sees it. */
export interface Principal {
  accountId: number;
  userId: number;
  /** The user's e-mail, as the audit log names the actor. */
  email: string;
  administrator: boolean;
  /**
   * How the caller proved itself: an API key of a type, a console session, or an e-mail and password sent
   * to `/v3/user/authenticate` (`td account`).
   */
  via: 'master' | 'write-only' | 'session' | 'password';
  keyId: number | null;
}

/**
 * `SVC1`, or `TD1` as the Treasure Data clients hard-code it (td-client-node uploads, the CLI's `connector:*`),
 * exactly one space, and the key: a double space or a tab anywhere is malformed. (Whitespace around the whole
 * value is not part of it in HTTP, RFC 9110 5.5: Node's parser drops it before any code sees it.)
 */
const SCHEME = /^(?:svc1|td1) ([^\s]+)$/i;

/**
 * Extracts the key from `Authorization: SVC1 <key>` or its alias `TD1 <key>` (scheme word in any case);
 * null when malformed. Every place that reads a key from the header goes through here.
 */
export function keyFromAuthorization(header: string | undefined): string | null {
  if (!header) return null;
  const m = SCHEME.exec(header);
  return m ? (m[1] as string) : null;
}

/** A key and its user as authentication reads them; remembered for a few seconds per node (apiKeys.ts). */
interface KeyAndUser {
  row: KeyRow;
  user: { administrator: number; email: string };
}

/**
 * Resolves a full key string to a principal, or null (unknown, wrong secret, revoked). An expired key
 * whose secret matches is a 401 saying so: the holder proved they have the key, so telling them why it no
 * longer works reveals nothing, and it is not counted as a guess. A key verified on this node within
 * `VERIFIED_KEY_MS` is not read and hashed again (its expiry is still checked on every request); revocations
 * and role changes made on this node are seen at once.
 */
async function principalForKey(deps: AppDeps, key: string): Promise<Principal | null> {
  const db = deps.storage.db;
  const now = deps.clock.now().getTime();
  const known = recallKey<KeyAndUser>(deps, key, now);
  const generation = verifiedGeneration(deps);
  const row = known?.row ?? (await findLiveKey(db, deps.config.secret, key));
  if (!row) return null;
  if (row.expires_at !== null && row.expires_at <= now) {
    throw unauthorized(
      `This API key ("${row.name}") expired at ${new Date(row.expires_at).toISOString()}. Create a new key in the console under Settings › API keys, and use it instead.`,
    );
  }
  const user =
    known?.user ??
    (await db
      .selectFrom('users')
      .select(['administrator', 'email'])
      .where('id', '=', row.user_id)
      .where('account_id', '=', row.account_id)
      .executeTakeFirst());
  if (!user) return null;
  if (!known) rememberKey(deps, key, row.id, { row, user } satisfies KeyAndUser, now, generation);
  await touchKey(deps, row.id, now);
  return {
    accountId: row.account_id,
    userId: row.user_id,
    email: user.email,
    administrator: user.administrator === 1,
    via: row.type,
    keyId: row.id,
  };
}

/**
 * A key a request presented, checked under the per-address throttle of bad keys: the principal when the key
 * authenticates, throttled or not (a valid key proves itself with 160 random bits, so one client's stale key
 * behind a shared address never locks out the others); else 429 while the address is throttled, or null
 * with one more failure counted.
 */
export async function principalForRequestKey(deps: AppDeps, c: Context, key: string | null): Promise<Principal | null> {
  const principal = key ? await principalForKey(deps, key) : null;
  if (principal) return principal;
  checkKeyThrottle(deps, c);
  recordBadKey(deps, c);
  return null;
}

const INVALID = 'Authentication failed: send a valid, unrevoked API key as "Authorization: SVC1 <key>".';

/**
 * API-key authentication for REST routes. Unless a route group opts in with `allowWriteOnly`,
 * a write-only key is refused with 403: those keys only import data (spec, Authentication 2).
 * Every failure (no header, wrong scheme, malformed, unknown, wrong secret, revoked) gets the same 401.
 */
export function apiKeyAuth(deps: AppDeps, opts: { allowWriteOnly?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const existing = c.get('principal');
    let principal = existing;
    if (!principal) {
      const header = c.req.header('authorization');
      // No credentials at all is not a guess; a malformed or wrong one is.
      principal = header === undefined ? null : await principalForRequestKey(deps, c, keyFromAuthorization(header));
      if (!principal) throw unauthorized(INVALID);
      c.set('principal', principal);
    }
    if (principal.via === 'write-only' && !opts.allowWriteOnly) {
      throw forbidden('This API key is write-only: it can only import data. Use a master key for this call.');
    }
    await next();
  };
}

export function requireAdmin(p: Principal): void {
  if (!p.administrator) throw forbidden('Only an administrator of the account can do this.');
}

/** The principal an auth middleware put on the context; a route reached without one answers 401. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get('principal');
  if (!principal) throw unauthorized(INVALID);
  return principal;
}

/** Console routes answer only to a signed-in browser, never to an API key. */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('principal')?.via !== 'session') {
      throw unauthorized('You are not signed in, or your session has ended. Sign in again.');
    }
    await next();
  };
}
