import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { type AuditAction, createUserRequest } from '@svc/contracts';
import {
  addKey,
  changeEmail,
  errorResponses,
  getUser,
  getUserByRef,
  restSecurity,
  toV3User,
  type UserRow,
  v3User,
  wireBody,
} from '../accounts';
import { auditAction } from '../audit';
import { apiKeyAuth, type Principal, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { forbidden } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { input } from '../platform/params';
import { changePassword, checkCurrentPassword, signInWithPassword } from './passwords';

/**
 * The clients' credential routes (td-client-ruby user.rb, td-client-python user_api.py, `td account`,
 * `td password:change`, `td user:password:change`): the same checks, throttle and session ends as the
 * console's sign-in and password change (passwords.ts).
 */

const given = (what: string) => z.string({ error: `Send "${what}".` }).min(1, `Send "${what}".`);

/** The name of a key `/v3/user/authenticate` makes (keys are stored hashed, so each success makes a new one). */
const AUTHENTICATE_KEY_NAME = 'Created by td account (/v3/user/authenticate)';

const authenticateParams = z.object({
  user: given('user').max(254).describe('The e-mail address'),
  password: given('password').max(200),
  account: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe('The account ID, needed only when the e-mail address and password open users of several accounts'),
});
const ownPasswordParams = z.object({
  old_password: given('old_password').max(200).describe('The current password'),
  password: createUserRequest.shape.password.describe('The new password'),
});
const passwordParams = z.object({ password: createUserRequest.shape.password.describe('The new password') });
const emailParams = z.object({ email: createUserRequest.shape.email.describe('The new e-mail address') });
const userRef = z.object({ name: z.string().describe('The user’s name or e-mail address') });

function routes(deps: AppDeps) {
  const auth = apiKeyAuth(deps);
  const base = { tags: ['Users'], security: restSecurity, middleware: [auth] };
  return {
    authenticate: createRoute({
      method: 'post',
      path: '/v3/user/authenticate',
      tags: ['Users'],
      summary: 'E-mail and password give a new master API key (`td account`)',
      description:
        'Keys are stored hashed, so each success creates a new master key for the user (decision 0024). A wrong ' +
        'password and an unknown e-mail get the same 401; failures are throttled like the console sign-in (429); ' +
        'users who sign in with SSO only get 403. An e-mail address may be used in several accounts: a password ' +
        'that opens more than one is 409 naming them; send `account` (the ID) to choose.',
      request: { body: wireBody(authenticateParams, 'user (the e-mail address) and password') },
      responses: {
        200: json(z.object({ apikey: z.string() }), 'A new master key, shown once'),
        ...errorResponses(400, 401, 403, 409, 415, 429),
      },
    }),
    ownPassword: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/password/change',
      summary: 'Change your own password; ends your console sessions',
      request: { body: wireBody(ownPasswordParams, 'old_password and password') },
      responses: { 200: json(v3User, 'You'), ...errorResponses(400, 401, 403, 415, 429) },
    }),
    password: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/password/change/{name}',
      summary: 'Set a user’s password (administrators); ends their console sessions',
      request: { params: userRef, body: wireBody(passwordParams, 'password') },
      responses: { 200: json(v3User, 'The user'), ...errorResponses(400, 401, 403, 404, 415) },
    }),
    email: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/email/change/{name}',
      summary: 'Change a user’s e-mail address (the user, or an administrator)',
      request: { params: userRef, body: wireBody(emailParams, 'email') },
      responses: { 200: json(v3User, 'The user'), ...errorResponses(400, 401, 403, 404, 409, 415) },
    }),
  };
}

/** Who may change another user's sign-in credentials: an administrator, never for the account owner. */
function assertMayChangeCredentials(p: Principal, target: UserRow, what: string): void {
  if (target.id === p.userId) return;
  if (!p.administrator) throw forbidden(`Only an administrator can change another user's ${what}.`);
  if (target.account_owner === 1) throw forbidden(`Only the account owner can change the owner's ${what}.`);
}

export function credentialRoutes(deps: AppDeps) {
  const r = routes(deps);
  const { db } = deps.storage;
  const audit = (p: Principal, action: AuditAction, target: UserRow, details?: Record<string, unknown>) =>
    auditAction(deps, p, action, { target: target.email, ...(details ? { details } : {}) });
  return new OpenAPIHono<AppEnv>()
    .openapi(r.authenticate, async (c) => {
      const { user: email, password, account } = await input(c, authenticateParams);
      const user = await signInWithPassword(deps, c, email, password, 'api', account);
      // The password proved the user; the new key is theirs, recorded as any key is (never its secret).
      const self: Principal = {
        accountId: user.account_id,
        userId: user.id,
        email: user.email,
        administrator: user.administrator === 1,
        via: 'password',
        keyId: null,
      };
      const { key } = await addKey(deps, self, user, { type: 'master', name: AUTHENTICATE_KEY_NAME });
      return c.json({ apikey: key }, 200);
    })
    .openapi(r.ownPassword, async (c) => {
      const p = principalOf(c);
      const { old_password, password } = await input(c, ownPasswordParams);
      const user = await getUser(db, p.accountId, p.userId);
      await checkCurrentPassword(deps, c, user, old_password);
      await changePassword(deps, user, password);
      await audit(p, 'user.password_change', user);
      return c.json(toV3User(user), 200);
    })
    .openapi(r.password, async (c) => {
      const p = principalOf(c);
      const target = await getUserByRef(db, p.accountId, c.req.valid('param').name);
      assertMayChangeCredentials(p, target, 'password');
      if (target.id === p.userId && !p.administrator) {
        throw forbidden('To change your own password, send your current one too: POST /v3/user/password/change.');
      }
      const { password } = await input(c, passwordParams);
      if (target.sso_mode === 'enforced' && target.id !== p.userId) {
        throw forbidden(
          `${target.email} signs in with single sign-on only, so a password would not be used. Disable enforced SSO first (POST /v3/user/disable_sso/<email>).`,
        );
      }
      await changePassword(deps, target, password);
      await audit(p, 'user.password_change', target);
      return c.json(toV3User(target), 200);
    })
    .openapi(r.email, async (c) => {
      const p = principalOf(c);
      const target = await getUserByRef(db, p.accountId, c.req.valid('param').name);
      assertMayChangeCredentials(p, target, 'e-mail address');
      const { email } = await input(c, emailParams);
      const changed = await changeEmail(deps, target, email);
      await audit(p, 'user.email_change', changed, { from: target.email });
      return c.json(toV3User(changed), 200);
    });
}
