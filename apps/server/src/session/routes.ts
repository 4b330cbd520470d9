import { createRoute, OpenAPIHono, type z } from '@hono/zod-openapi';
import { changePasswordRequest, loginRequest, meResponse, okResponse, SESSION_COOKIE } from '@svc/contracts';
import { errorResponses, findAccount, getUser, toMe } from '../accounts';
import { auditAction } from '../audit';
import { principalOf, requireSession } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { jsonResponse as json } from '../platform/openapi';
import { takeLoginNotices } from './loginLimiter';
import { changePassword, checkCurrentPassword, signInWithPassword } from './passwords';
import { clearSessionCookie, createSession, readSessionCookie, revokeSession, setSessionCookie } from './sessions';

const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
});

const consoleSecurity = [{ consoleSession: [] }];

const login = createRoute({
  method: 'post',
  path: '/console-api/login',
  tags: ['Console session'],
  summary: 'Sign in with e-mail and password; sets the session cookie',
  request: { body: jsonBody(loginRequest) },
  responses: { 200: json(meResponse, 'Signed in'), ...errorResponses(400, 401, 403, 409, 429) },
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
      responses: {
        200: json(okResponse, 'Changed; a new session cookie is set'),
        ...errorResponses(400, 401, 403, 429),
      },
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
      const { email, password, accountId } = c.req.valid('json');
      const user = await signInWithPassword(deps, c, email, password, 'console', accountId);
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
      await checkCurrentPassword(deps, c, user, currentPassword);
      // Anyone else signed in as this user (perhaps with the old password) is signed out; this browser stays in.
      await changePassword(deps, user, newPassword);
      setSessionCookie(c, await createSession(deps, user));
      await auditAction(deps, p, 'user.password_change', {
        target: user.email,
        details: { other_sessions_ended: true },
      });
      return c.json({}, 200);
    });
}
