import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { apiKeyName, apiKeyType, createUserRequest } from '@svc/contracts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { jsonResponse as json } from '../platform/openapi';
import { input, truthy } from '../platform/params';
import { addKey, assertMayManageKeys, findOwnedKey, listKeys, revokeKey } from './apiKeys';
import { maskKey } from './keys';
import { errorResponses, restSecurity, wireBody } from './openapi';
import type { SsoProof } from './signInGuard';
import { accountStorageBytes } from './storage';
import { addUser, findAccount, getUser, getUserByRef, listUsers, removeUser } from './users';
import {
  toV3Account,
  toV3User,
  v3AccountResponse,
  v3ApiKeyCreated,
  v3ApiKeyRemoved,
  v3ApiKeysResponse,
  v3KeyValidation,
  v3User,
  v3UsersResponse,
} from './wire';

const userRef = z.object({
  name: z.string().openapi({ description: 'The user’s name or e-mail address', example: 'ann' }),
});
const keyOwnerRef = z.object({
  email: z.string().openapi({ description: 'The key owner’s e-mail address (or name)', example: 'ann@example.com' }),
});

const addUserParams = z.object({
  email: createUserRequest.shape.email,
  password: createUserRequest.shape.password,
  administrator: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => truthy(v))
    .describe('true (or 1, yes) to make the user an administrator'),
});
/** The clients send no body here (td user:apikey:add), so a key made without a name gets this one. */
const DEFAULT_KEY_NAME = 'Created with /v3/user/apikey/add';
const addKeyParams = z.object({
  type: apiKeyType.default('master').describe('master (default) or write-only'),
  name: apiKeyName.optional().describe(`What the key is for (default "${DEFAULT_KEY_NAME}")`),
  expires_at: z
    .string()
    .max(40)
    .optional()
    .describe('ISO 8601 time after which the key is refused; leave it out for a key that never expires'),
});
const removeKeyParams = z.object({
  apikey: z
    .string({ error: 'Send "apikey": the key to revoke, as the full key, its id or the masked form a listing shows.' })
    .min(1, 'Send "apikey": the key to revoke, as the full key, its id or the masked form a listing shows.')
    .describe('The key to revoke: the full key, its id, or the masked form a listing shows'),
});

function routes(deps: AppDeps) {
  const auth = apiKeyAuth(deps);
  const base = { security: restSecurity, middleware: [auth] };
  return {
    accountShow: createRoute({
      ...base,
      method: 'get',
      path: '/v3/account/show',
      tags: ['Account'],
      summary: 'The caller’s account',
      responses: { 200: json(v3AccountResponse, 'The account'), ...errorResponses(401, 403) },
    }),
    userShow: createRoute({
      ...base,
      method: 'get',
      path: '/v3/user/show',
      tags: ['Users'],
      summary: 'The calling user',
      responses: { 200: json(v3User, 'The user'), ...errorResponses(401, 403) },
    }),
    userList: createRoute({
      ...base,
      method: 'get',
      path: '/v3/user/list',
      tags: ['Users'],
      summary: 'Users of the account',
      responses: { 200: json(v3UsersResponse, 'Every user of the account'), ...errorResponses(401, 403) },
    }),
    userAdd: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/add/{name}',
      tags: ['Users'],
      summary: 'Add a user (administrators)',
      request: {
        params: z.object({ name: createUserRequest.shape.name }),
        body: wireBody(addUserParams, 'email, password and optionally administrator'),
      },
      responses: { 200: json(v3User, 'The new user'), ...errorResponses(400, 401, 403, 409, 415) },
    }),
    userRemove: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/remove/{name}',
      tags: ['Users'],
      summary: 'Remove a user (administrators; not yourself, not the owner)',
      request: { params: userRef },
      responses: { 200: json(v3User, 'The removed user'), ...errorResponses(401, 403, 404, 409) },
    }),
    keyList: createRoute({
      ...base,
      method: 'get',
      path: '/v3/user/apikey/list/{email}',
      tags: ['API keys'],
      summary: 'A user’s API keys, masked',
      request: { params: keyOwnerRef },
      responses: { 200: json(v3ApiKeysResponse, 'The live keys, masked'), ...errorResponses(401, 403, 404) },
    }),
    keyAdd: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/apikey/add/{email}',
      tags: ['API keys'],
      summary: 'Create an API key (shown once)',
      request: { params: keyOwnerRef, body: wireBody(addKeyParams, 'type: master (default) or write-only') },
      responses: { 200: json(v3ApiKeyCreated, 'The new key, in full'), ...errorResponses(400, 401, 403, 404, 415) },
    }),
    keyRemove: createRoute({
      ...base,
      method: 'post',
      path: '/v3/user/apikey/remove/{email}',
      tags: ['API keys'],
      summary: 'Revoke an API key',
      request: { params: keyOwnerRef, body: wireBody(removeKeyParams, 'apikey: the full key, its id or masked form') },
      responses: { 200: json(v3ApiKeyRemoved, 'The key is revoked'), ...errorResponses(400, 401, 403, 404, 415) },
    }),
    keyValidate: createRoute({
      ...base,
      method: 'get',
      path: '/v3/user/apikey/validate',
      tags: ['API keys'],
      summary: 'Check the key the request is made with',
      responses: { 200: json(v3KeyValidation, 'Who the key belongs to'), ...errorResponses(401, 403) },
    }),
  };
}

/**
 * `/v3` account, user and API key routes (wire-compat §2.7). Every lookup is scoped by the caller's account.
 * `ssoProven` (the sso feature's answer, wired in app.ts) lets the lock-out guard judge removals.
 */
export function accountRoutes(deps: AppDeps, ssoProven: SsoProof) {
  const r = routes(deps);
  const { db } = deps.storage;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.accountShow, async (c) => {
      const p = principalOf(c);
      const account = await findAccount(db, p.accountId);
      const storage = accountStorageBytes(deps.config.dataDir, p.accountId);
      return c.json({ account: toV3Account(account, storage) }, 200);
    })
    .openapi(r.userShow, async (c) => {
      const p = principalOf(c);
      return c.json(toV3User(await getUser(db, p.accountId, p.userId)), 200);
    })
    .openapi(r.userList, async (c) => {
      const p = principalOf(c);
      return c.json({ users: (await listUsers(db, p.accountId)).map(toV3User) }, 200);
    })
    .openapi(r.userAdd, async (c) => {
      const p = principalOf(c);
      const { name } = c.req.valid('param');
      const params = await input(c, addUserParams);
      const user = await addUser(deps, p, { name, ...params });
      return c.json(toV3User(user), 200);
    })
    .openapi(r.userRemove, async (c) => {
      const p = principalOf(c);
      const target = await getUserByRef(db, p.accountId, c.req.valid('param').name);
      await removeUser(deps, p, target, ssoProven);
      return c.json(toV3User(target), 200);
    })
    .openapi(r.keyList, async (c) => {
      const p = principalOf(c);
      const owner = await getUserByRef(db, p.accountId, c.req.valid('param').email);
      assertMayManageKeys(p, owner);
      return c.json({ apikeys: (await listKeys(db, p.accountId, { userId: owner.id })).map(maskKey) }, 200);
    })
    .openapi(r.keyAdd, async (c) => {
      const p = principalOf(c);
      const owner = await getUserByRef(db, p.accountId, c.req.valid('param').email);
      assertMayManageKeys(p, owner);
      const { type, name, expires_at } = await input(c, addKeyParams);
      const created = await addKey(deps, p, owner, { type, name: name ?? DEFAULT_KEY_NAME, expiresAt: expires_at });
      return c.json({ apikey: created.key }, 200);
    })
    .openapi(r.keyRemove, async (c) => {
      const p = principalOf(c);
      const owner = await getUserByRef(db, p.accountId, c.req.valid('param').email);
      assertMayManageKeys(p, owner);
      const { apikey } = await input(c, removeKeyParams);
      const row = await findOwnedKey(deps, owner, apikey);
      await revokeKey(deps, p, row, owner.email);
      return c.json({ apikey: maskKey(row) }, 200);
    })
    .openapi(r.keyValidate, (c) => {
      const p = principalOf(c);
      return c.json(
        {
          // Only keys reach this route; a password-proven principal exists only inside /v3/user/authenticate.
          key_type: p.via === 'password' ? 'master' : p.via,
          account_id: p.accountId,
          user_id: p.userId,
          administrator: p.administrator,
        },
        200,
      );
    });
}
