import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '@svc/contracts';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { UserRow } from '../accounts';
import { userColumnOf } from '../accounts';
import type { AppDeps, AppEnv } from '../platform/context';
import { hmac } from '../platform/secrets';
import { one, type Row, sql, transaction } from '../platform/storage';

/** Console sessions: a random id in the cookie, only its HMAC in `console_sessions` (DESIGN §6). */

const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** A session ends this long after it began, however busy (`SVC_SESSION_MAX_HOURS`, default 24). */
export const DEFAULT_SESSION_MAX_MS = 24 * 60 * 60 * 1000;
const sessionMaxMs = (config: AppDeps['config']) => config.sessionMaxMs ?? DEFAULT_SESSION_MAX_MS;

/** last_seen_at is written at most this often, so a busy console does not write on every request. */
const TOUCH_EVERY_MS = 60_000;

const idHash = (deps: AppDeps, id: string) => hmac(deps.config.secret, `session:${id}`);

export interface LiveSession {
  accountId: number;
  userId: number;
  email: string;
  administrator: boolean;
}

/** How a session was started; SSO mode changes end only the sessions of one kind (DESIGN §6). */
export type SessionMethod = 'password' | 'sso';

/** Starts a session for the user and returns its id (for the cookie only; it is not stored). */
export async function createSession(deps: AppDeps, user: UserRow, method: SessionMethod = 'password'): Promise<string> {
  const now = deps.clock.now().getTime();
  const id = randomBytes(32).toString('base64url');
  const hash = idHash(deps, id);
  await transaction(deps.storage, async (tx) => {
    // The user's ended sessions are of no further use; clearing them here keeps the table small.
    await tx
      .deleteFrom('console_sessions')
      .where('account_id', '=', user.account_id)
      .where('user_id', '=', user.id)
      .where((w) =>
        w.or([
          w('revoked_at', 'is not', null),
          w('last_seen_at', '<=', now - deps.config.sessionIdleMs),
          w('created_at', '<=', now - sessionMaxMs(deps.config)),
        ]),
      )
      .execute();
    await tx
      .insertInto('console_sessions')
      .values({
        id_hash: hash,
        account_id: user.account_id,
        user_id: user.id,
        created_at: now,
        last_seen_at: now,
        method,
        administrator: user.administrator,
      })
      .execute();
  });
  return id;
}

/** A session's row with the privilege it began with (`granted`) and its user's now (null: no such user). */
type SessionLookup = Pick<
  Row<'console_sessions'>,
  'account_id' | 'user_id' | 'created_at' | 'last_seen_at' | 'revoked_at'
> & {
  granted: Row<'console_sessions'>['administrator'];
  administrator: number | null;
  email: string | null;
};

/**
 * The session an id names if it is neither revoked nor idle for too long; marks it as used. Read from the
 * database on every request (no cache), so a session started or ended on another node counts at once.
 */
export async function findLiveSession(deps: AppDeps, id: string): Promise<LiveSession | null> {
  if (!ID_SHAPE.test(id)) return null;
  const hash = idHash(deps, id);
  const row = await one<SessionLookup>(
    deps.storage.db,
    sql`SELECT s.account_id, s.user_id, s.created_at, s.last_seen_at, s.revoked_at, s.administrator AS granted,
               ${userColumnOf('administrator', 's.user_id', 's.account_id')} AS administrator,
               ${userColumnOf('email', 's.user_id', 's.account_id')} AS email
          FROM console_sessions s
         WHERE s.id_hash = ${hash}`,
  );
  // A session of a removed user (no e-mail, no privilege) is over, as one revoked.
  if (!row || row.revoked_at !== null || row.email === null) return null;
  // A session carries the privilege it began with: after a change, the user signs in again (a new id).
  if (row.granted !== row.administrator) return null;
  const now = deps.clock.now().getTime();
  if (now - row.last_seen_at >= deps.config.sessionIdleMs) return null;
  if (now - row.created_at >= sessionMaxMs(deps.config)) return null;
  if (now - row.last_seen_at >= TOUCH_EVERY_MS) {
    // Never moves last_seen_at back when another node touched it later.
    await deps.storage.db
      .updateTable('console_sessions')
      .set({ last_seen_at: now })
      .where('id_hash', '=', hash)
      .where('last_seen_at', '<', now)
      .execute();
  }
  return {
    accountId: row.account_id,
    userId: row.user_id,
    email: row.email,
    administrator: row.administrator === 1,
  };
}

/** Revokes now the live sessions the caller's conditions name. */
const revoke = (deps: AppDeps) =>
  deps.storage.db
    .updateTable('console_sessions')
    .set({ revoked_at: deps.clock.now().getTime() })
    .where('revoked_at', 'is', null);

export async function revokeSession(deps: AppDeps, id: string): Promise<void> {
  if (!ID_SHAPE.test(id)) return;
  await revoke(deps).where('id_hash', '=', idHash(deps, id)).execute();
}

/** Ends every session of a user, e.g. after a password change. */
export async function revokeUserSessions(deps: AppDeps, accountId: number, userId: number): Promise<void> {
  await revoke(deps).where('account_id', '=', accountId).where('user_id', '=', userId).execute();
}

/**
 * After the user's administrator flag changed (issue 22: sessions rotated on privilege change): every
 * session of the user ends, so no browser keeps the old privilege. When the caller is that user, this
 * browser goes on with a new session (a new id) that carries the new privilege.
 */
export async function rotateOnPrivilegeChange(deps: AppDeps, c: Context<AppEnv>, user: UserRow): Promise<void> {
  await revokeUserSessions(deps, user.account_id, user.id);
  const caller = c.get('principal');
  if (caller?.via === 'session' && caller.userId === user.id && caller.accountId === user.account_id) {
    setSessionCookie(c, await createSession(deps, user));
  }
}

/** Ends a user's sessions started one way: enforcing SSO ends password sessions, disabling it SSO ones. */
export async function revokeUserSessionsByMethod(
  deps: AppDeps,
  accountId: number,
  userId: number,
  method: SessionMethod,
): Promise<void> {
  await revoke(deps)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('method', '=', method)
    .execute();
}

/** Ends every SSO session of the account, when its SSO setting is deleted. */
export async function revokeAccountSsoSessions(deps: AppDeps, accountId: number): Promise<void> {
  await revoke(deps).where('account_id', '=', accountId).where('method', '=', 'sso').execute();
}

export function readSessionCookie(c: Context): string | null {
  return getCookie(c, SESSION_COOKIE) ?? null;
}

// `__Host-` cookies must be Secure, Path=/ and carry no Domain; browsers treat http://localhost as secure.
const cookieOptions = { httpOnly: true, secure: true, sameSite: 'Strict', path: '/' } as const;

export function setSessionCookie(c: Context, id: string): void {
  setCookie(c, SESSION_COOKIE, id, cookieOptions);
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, cookieOptions);
}
