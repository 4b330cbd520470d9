import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import { changePasswordRequest, loginRequest, meResponse, okResponse, SESSION_COOKIE } from '@svc/contracts';
import { errorResponses } from '../accounts/openapi';
import { findAccount, findUserForLogin, getUser, setPassword, type UserRow } from '../accounts/users';
import { toMe } from '../accounts/wire';
import { auditAction, recordAudit } from '../audit';
import { principalOf, requireSession } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { verifyPassword } from '../platform/secrets';
import {
  clientAddress,
  describeWait,
  forgiveLoginAttempts,
  loginRetryAfterSeconds,
  noteLoginFailure,
  recordLoginAttempt,
  takeLoginNotices,
} from './loginLimiter';
import {
  clearSessionCookie,
  createSession,
  readSessionCookie,
  revokeSession,
  revokeUserSessions,
  setSessionCookie,
} from './sessions';

const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
});

const consoleSecurity = [{ consoleSession: [] }];

/** A password sign-in, or its refusal with a reason code (`wrong_password`, `sso_enforced`), in the user's log. */
function signInAudit(deps: AppDeps, user: UserRow, address: string, refused: string | null): Promise<void> {
  return recordAudit(deps, {
    accountId: user.account_id,
    actorUserId: user.id,
    actor: user.email,
    action: 'user.sign_in',
    target: user.email,
    outcome: refused === null ? 'success' : 'failure',
    reason: refused,
    details: { method: 'password', address },
  });
}
const WRONG_CREDENTIALS = 'The e-mail address or password is incorrect.';

const login = createRoute({
  method: 'post',
  path: '/console-api/login',
  tags: ['Console session'],
  summary: 'Sign in with e-mail and password; sets the session cookie',
  request: { body: jsonBody(loginRequest) },
  responses: { 200: json(meResponse, 'Signed in'), ...errorResponses(400, 401, 403, 429) },
});

const logout = createRoute({
  method: 'post',
  path: '/console-api/logout',
  tags: ['Console session'],
  summary: 'Sign out: ends the session and clears the cookie',
  responses: { 200: json(okResponse, 'Signed out'), ...errorResponses(403) },
});

function sessionRoutes() {
  const session = requireSession();
  return {
    me: createRoute({
      method: 'get',
      path: '/console-api/me',
      tags: ['Console session'],
      summary: 'The signed-in user',
      security: consoleSecurity,
      middleware: [session],
      responses: { 200: json(meResponse, 'The signed-in user'), ...errorResponses(401) },
    }),
    password: createRoute({
      method: 'post',
      path: '/console-api/me/password',
      tags: ['Console session'],
      summary: 'Change your password; ends your other sessions',
      security: consoleSecurity,
      middleware: [session],
      request: { body: jsonBody(changePasswordRequest) },
      responses: { 200: json(okResponse, 'Changed; a new session cookie is set'), ...errorResponses(400, 401, 403) },
    }),
  };
}

/** The console's backend-for-frontend: sign-in, sign-out, the current user, and settings. */
export function consoleRoutes(deps: AppDeps) {
  const { db } = deps.storage;
  const r = sessionRoutes();
  const app = new OpenAPIHono<AppEnv>();
  app.openAPIRegistry.registerComponent('securitySchemes', 'consoleSession', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'Set by POST /console-api/login. Unsafe requests also need the header `x-svc-console: 1`.',
  });
  return app
    .openapi(login, async (c) => {
      const { email, password } = c.req.valid('json');
      const address = clientAddress(c, deps.config.trustedProxies);
      const wait = await loginRetryAfterSeconds(deps, email, address);
      if (wait !== null) {
        c.header('Retry-After', String(wait));
        throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${describeWait(wait)}.`, wait);
      }
      await recordLoginAttempt(deps, email, address);
      const user = await findUserForLogin(db, email);
      // verifyPassword spends the same time on an unknown e-mail, so the answer does not tell which was wrong.
      if (!(await verifyPassword(password, user?.password_hash ?? null)) || !user) {
        // An e-mail of no user belongs to no account, so no account's log has a place for it.
        if (user) await signInAudit(deps, user, address, 'wrong_password');
        await noteLoginFailure(deps, email, address, user);
        throw unauthorized(WRONG_CREDENTIALS);
      }
      await forgiveLoginAttempts(deps, email, address);
      // Told only after the password proved who is asking, so the answer reveals nothing to a guesser.
      if (user.sso_mode === 'enforced') {
        await signInAudit(deps, user, address, 'sso_enforced');
        throw forbidden('Your account signs in with single sign-on only. Use "Sign in with SSO" instead.');
      }
      await signInAudit(deps, user, address, null);
      const previous = readSessionCookie(c);
      if (previous) await revokeSession(deps, previous);
      setSessionCookie(c, await createSession(deps, user));
      const notices = (await takeLoginNotices(deps, user.account_id, user.id)).map((n) => ({
        ...n,
        at: new Date(n.at).toISOString(),
      }));
      const account = await findAccount(db, user.account_id);
      return c.json({ user: toMe(user, account), ...(notices.length ? { loginNotices: notices } : {}) }, 200);
    })
    .openapi(logout, async (c) => {
      const id = readSessionCookie(c);
      if (id) await revokeSession(deps, id);
      clearSessionCookie(c);
      return c.json({}, 200);
    })
    .openapi(r.me, async (c) => {
      const p = principalOf(c);
      const user = await getUser(db, p.accountId, p.userId);
      return c.json({ user: toMe(user, await findAccount(db, p.accountId)) }, 200);
    })
    .openapi(r.password, async (c) => {
      const p = principalOf(c);
      const { currentPassword, newPassword } = c.req.valid('json');
      const user = await getUser(db, p.accountId, p.userId);
      if (!(await verifyPassword(currentPassword, user.password_hash))) {
        throw badRequest('The current password is incorrect.');
      }
      await setPassword(deps, user, newPassword);
      // Anyone else signed in as this user (perhaps with the old password) is signed out; this browser stays in.
      await revokeUserSessions(deps, user.account_id, user.id);
      setSessionCookie(c, await createSession(deps, user));
      await auditAction(deps, p, 'user.password_change', {
        target: user.email,
        details: { other_sessions_ended: true },
      });
      return c.json({}, 200);
    });
}
