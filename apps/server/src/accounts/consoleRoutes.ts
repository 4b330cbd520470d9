import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  accountSettings,
  accountSettingsResponse,
  apiKeysResponse,
  createApiKeyRequest,
  createdApiKeyResponse,
  createUserRequest,
  okResponse,
  updateUserRequest,
  userResponse,
  usersResponse,
} from '@svc/contracts';
import type { Context } from 'hono';
import { principalOf, requireAdmin, requireSession } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { forbidden, notFound } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { addKey, findAccountKey, listKeys, revokeKey } from './apiKeys';
import { errorResponses, idParam, jsonBody } from './openapi';
import { changeAccountSettings, accountSettings as readSettings } from './settings';
import type { SsoProof } from './signInGuard';
import { addUser, getUser, listUsers, removeUser, type UserRow, updateUser } from './users';
import { toConsoleKey, toConsoleUser } from './wire';

/** What the account routes need from features that depend on accounts (wired in app.ts, no import cycle). */
export interface AccountHooks {
  /** The sso feature: has the account's SSO passed Test SSO (the lock-out guard counts SSO only then)? */
  ssoProven: SsoProof;
  /**
   * The session feature: the user's administrator flag changed; ends their sessions, and gives the calling
   * browser a new session id when the user is the caller.
   */
  privilegeChanged(c: Context<AppEnv>, user: UserRow): Promise<void>;
}

const keysQuery = z.object({
  user: z
    .union([z.literal('all'), z.coerce.number().int().positive()], {
      error: '"user" must be a user id or "all".',
    })
    .optional()
    .openapi({ description: 'Administrators: a user id, or "all" for every user. Default: your own keys.' }),
});

function routes() {
  const base = { security: [{ consoleSession: [] }], middleware: [requireSession()] };
  const users = { ...base, tags: ['Console settings'] };
  return {
    listUsers: createRoute({
      ...users,
      method: 'get',
      path: '/console-api/users',
      summary: 'Users of the account (administrators)',
      responses: { 200: json(usersResponse, 'The users'), ...errorResponses(401, 403) },
    }),
    addUser: createRoute({
      ...users,
      method: 'post',
      path: '/console-api/users',
      summary: 'Add a user (administrators)',
      request: { body: jsonBody(createUserRequest) },
      responses: { 200: json(userResponse, 'The new user'), ...errorResponses(400, 401, 403, 409) },
    }),
    updateUser: createRoute({
      ...users,
      method: 'patch',
      path: '/console-api/users/{id}',
      summary: 'Rename a user or change their role (administrators); a role change ends the user’s sessions',
      request: { params: idParam, body: jsonBody(updateUserRequest) },
      responses: { 200: json(userResponse, 'The user as changed'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    removeUser: createRoute({
      ...users,
      method: 'delete',
      path: '/console-api/users/{id}',
      summary: 'Remove a user (administrators; not yourself, not the owner, not the last administrator)',
      request: { params: idParam },
      responses: { 200: json(okResponse, 'Removed'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    settings: createRoute({
      ...users,
      method: 'get',
      path: '/console-api/account/settings',
      summary: 'The account’s settings (every user may read them)',
      responses: { 200: json(accountSettingsResponse, 'The settings'), ...errorResponses(401) },
    }),
    changeSettings: createRoute({
      ...users,
      method: 'patch',
      path: '/console-api/account/settings',
      summary: 'Change the account’s settings (administrators)',
      request: { body: jsonBody(accountSettings.partial()) },
      responses: { 200: json(accountSettingsResponse, 'The settings'), ...errorResponses(400, 401, 403) },
    }),
    listKeys: createRoute({
      ...users,
      method: 'get',
      path: '/console-api/api-keys',
      summary: 'API keys, masked: yours, or (administrators) a user’s or everyone’s',
      request: { query: keysQuery },
      responses: { 200: json(apiKeysResponse, 'Unrevoked keys, expired ones too'), ...errorResponses(400, 401, 403) },
    }),
    addKey: createRoute({
      ...users,
      method: 'post',
      path: '/console-api/api-keys',
      summary: 'Create an API key for yourself; the only answer that carries the whole key',
      request: { body: jsonBody(createApiKeyRequest) },
      responses: { 200: json(createdApiKeyResponse, 'The new key'), ...errorResponses(400, 401, 403) },
    }),
    removeKey: createRoute({
      ...users,
      method: 'delete',
      path: '/console-api/api-keys/{id}',
      summary: 'Revoke an API key: yours, or (administrators) anyone’s in the account',
      request: { params: idParam },
      responses: { 200: json(okResponse, 'Revoked'), ...errorResponses(400, 401, 403, 404) },
    }),
  };
}

/**
 * Settings pages of the console. Users are managed by administrators with the same service (and rules) as
 * `/v3/user/*`; everyone manages their own API keys, administrators everyone's.
 */
export function accountConsoleRoutes(deps: AppDeps, hooks: AccountHooks) {
  const { db } = deps.storage;
  const r = routes();
  return new OpenAPIHono<AppEnv>()
    .openapi(r.listUsers, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      return c.json({ users: (await listUsers(db, p.accountId)).map(toConsoleUser) }, 200);
    })
    .openapi(r.addUser, async (c) => {
      const p = principalOf(c);
      const user = await addUser(deps, p, c.req.valid('json'));
      return c.json({ user: toConsoleUser(user) }, 200);
    })
    .openapi(r.updateUser, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const target = await getUser(db, p.accountId, c.req.valid('param').id);
      const { user, roleChanged } = await updateUser(deps, p, target, c.req.valid('json'), hooks.ssoProven);
      if (roleChanged) await hooks.privilegeChanged(c, user);
      return c.json({ user: toConsoleUser(user) }, 200);
    })
    .openapi(r.removeUser, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      await removeUser(deps, p, await getUser(db, p.accountId, c.req.valid('param').id), hooks.ssoProven);
      return c.json({}, 200);
    })
    .openapi(r.settings, async (c) => {
      return c.json({ settings: await readSettings(db, principalOf(c).accountId) }, 200);
    })
    .openapi(r.changeSettings, async (c) => {
      return c.json({ settings: await changeAccountSettings(deps, principalOf(c), c.req.valid('json')) }, 200);
    })
    .openapi(r.listKeys, async (c) => {
      const p = principalOf(c);
      const { user } = c.req.valid('query');
      const userId = user === undefined ? p.userId : user === 'all' ? undefined : user;
      if (userId !== p.userId && !p.administrator) {
        throw forbidden('Only an administrator can list other users’ API keys. Leave out "user" to list yours.');
      }
      const rows = await listKeys(db, p.accountId, { userId });
      const now = deps.clock.now();
      return c.json({ apiKeys: rows.map((row) => toConsoleKey(row, now)) }, 200);
    })
    .openapi(r.addKey, async (c) => {
      const p = principalOf(c);
      const me = await getUser(db, p.accountId, p.userId);
      const { key, row } = await addKey(deps, p, me, c.req.valid('json'));
      return c.json({ apiKey: toConsoleKey({ ...row, owner_email: me.email }, deps.clock.now()), key }, 200);
    })
    .openapi(r.removeKey, async (c) => {
      const p = principalOf(c);
      const row = await findAccountKey(deps, p.accountId, c.req.valid('param').id);
      // Another user's key is not theirs to see: the same 404 as a key that does not exist.
      if (row.user_id !== p.userId && !p.administrator) throw notFound('api key');
      await revokeKey(deps, p, row, row.owner_email);
      return c.json({}, 200);
    });
}
