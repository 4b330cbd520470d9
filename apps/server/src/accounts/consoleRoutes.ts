import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  apiKeysResponse,
  createApiKeyRequest,
  createdApiKeyResponse,
  createUserRequest,
  okResponse,
  userResponse,
  usersResponse,
} from '@svc/contracts';
import { principalOf, requireAdmin, requireSession } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { jsonResponse as json } from '../platform/openapi';
import { addKey, findOwnedKey, listKeys, revokeKey } from './apiKeys';
import { errorResponses } from './openapi';
import { addUser, getUser, listUsers, removeUser } from './users';
import { toConsoleKey, toConsoleUser } from './wire';

const jsonBody = <S extends z.ZodType>(schema: S) => ({
  required: true,
  content: { 'application/json': { schema } },
});
const idParam = z.object({
  id: z.coerce
    .number({ error: 'The id in the path must be a whole number.' })
    .int('The id in the path must be a whole number.')
    .positive('The id in the path must be a whole number.')
    .openapi({ param: { name: 'id', in: 'path' }, example: 12 }),
});

function routes() {
  const base = { security: [{ consoleSession: [] }], middleware: [requireSession()] };
  return {
    listUsers: createRoute({
      ...base,
      method: 'get',
      path: '/console-api/users',
      tags: ['Console settings'],
      summary: 'Users of the account (administrators)',
      responses: { 200: json(usersResponse, 'The users'), ...errorResponses(401, 403) },
    }),
    addUser: createRoute({
      ...base,
      method: 'post',
      path: '/console-api/users',
      tags: ['Console settings'],
      summary: 'Add a user (administrators)',
      request: { body: jsonBody(createUserRequest) },
      responses: { 200: json(userResponse, 'The new user'), ...errorResponses(400, 401, 403, 409) },
    }),
    removeUser: createRoute({
      ...base,
      method: 'delete',
      path: '/console-api/users/{id}',
      tags: ['Console settings'],
      summary: 'Remove a user (administrators; not yourself, not the owner)',
      request: { params: idParam },
      responses: { 200: json(okResponse, 'Removed'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    listKeys: createRoute({
      ...base,
      method: 'get',
      path: '/console-api/api-keys',
      tags: ['Console settings'],
      summary: 'Your API keys, masked',
      responses: { 200: json(apiKeysResponse, 'Your live keys'), ...errorResponses(401) },
    }),
    addKey: createRoute({
      ...base,
      method: 'post',
      path: '/console-api/api-keys',
      tags: ['Console settings'],
      summary: 'Create an API key; the only answer that carries the whole key',
      request: { body: jsonBody(createApiKeyRequest) },
      responses: { 200: json(createdApiKeyResponse, 'The new key'), ...errorResponses(400, 401, 403) },
    }),
    removeKey: createRoute({
      ...base,
      method: 'delete',
      path: '/console-api/api-keys/{id}',
      tags: ['Console settings'],
      summary: 'Revoke one of your API keys',
      request: { params: idParam },
      responses: { 200: json(okResponse, 'Revoked'), ...errorResponses(400, 401, 403, 404) },
    }),
  };
}

/**
 * Settings pages of the console. Users are managed by administrators with the same service (and rules) as
 * `/v3/user/*`; API keys here are always the signed-in user's own.
 */
export function accountConsoleRoutes(deps: AppDeps) {
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
    .openapi(r.removeUser, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      await removeUser(deps, p, await getUser(db, p.accountId, c.req.valid('param').id));
      return c.json({}, 200);
    })
    .openapi(r.listKeys, async (c) => {
      const p = principalOf(c);
      const me = await getUser(db, p.accountId, p.userId);
      return c.json({ apiKeys: (await listKeys(db, me)).map(toConsoleKey) }, 200);
    })
    .openapi(r.addKey, async (c) => {
      const p = principalOf(c);
      const me = await getUser(db, p.accountId, p.userId);
      const { key, row } = await addKey(deps, me, c.req.valid('json').type);
      return c.json({ apiKey: toConsoleKey(row), key }, 200);
    })
    .openapi(r.removeKey, async (c) => {
      const p = principalOf(c);
      const me = await getUser(db, p.accountId, p.userId);
      await revokeKey(deps, await findOwnedKey(deps, me, String(c.req.valid('param').id)));
      return c.json({}, 200);
    });
}
