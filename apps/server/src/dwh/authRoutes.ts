import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  authentication,
  authenticationCreate,
  authenticationList,
  authenticationTest,
  authenticationUpdate,
  type ConnectionTest,
  connectionTest,
  dwhFeature,
} from '@svc/contracts';
import { about, auditAction } from '../audit';
import { hostProblem } from '../platform/addressPolicy';
import { principalOf, requireAdmin } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { input } from '../platform/params';
import {
  type AuthRow,
  connectionSpec,
  deleteAuthentication,
  insertAuthentication,
  listAuthentications,
  requireAuthentication,
  toWireAuthentication,
  updateAuthentication,
} from './authentications';
import { type ConnectionSpec, type ConnectOptions, WarehouseError, withConnection } from './connection';
import { featureEnabled, setFeature } from './feature';
import { base, commonErrors, enabledPrincipal, error, idParam, json, jsonBody } from './routeKit';

type Changes = Partial<Omit<ConnectionSpec, 'password'>> & { password?: string };

/** The settings to try: the stored ones (when there are) with the changes sent; no password sent keeps the stored one. */
function specToTry(deps: AppDeps, row: AuthRow | null, v: Changes & { user?: string }): ConnectionSpec {
  const stored = row ? connectionSpec(deps, row) : null;
  const spec = {
    host: v.host ?? stored?.host,
    port: v.port ?? stored?.port ?? 5432,
    database: v.database ?? stored?.database,
    user: v.user ?? stored?.user,
    password: v.password ?? stored?.password ?? '',
    ssl_mode: v.ssl_mode ?? stored?.ssl_mode ?? 'prefer',
  };
  for (const field of ['host', 'database', 'user'] as const) {
    if (!spec[field]) throw badRequest(`Give the warehouse "${field}" to test the connection.`);
  }
  return spec as ConnectionSpec;
}

/** The feature switch and warehouse authentications: store, change, test (saved or not) and delete (`/v1`). */
export function dwhAuthRoutes(deps: AppDeps, options: ConnectOptions) {
  const b = base(deps, 'Data-warehouse sync');
  /** The outbound address policy at save: a host that is refused now would be refused at every connection. */
  const checkHost = async (host: string | undefined) => {
    const problem = host === undefined ? null : await hostProblem(host, 'warehouse', options.outbound, 'save');
    if (problem) throw badRequest(problem);
  };
  /** Connects once; a failure a person can fix is `ok: false` with the sentence saying what to check. */
  const tryConnection = async (spec: ConnectionSpec): Promise<ConnectionTest> => {
    try {
      const { version, tls } = await withConnection(spec, options, async (client) => {
        const v = await client.query('SHOW server_version');
        const t = await client.query('SELECT ssl::text AS ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
        return { version: String(v.rows[0]?.server_version ?? ''), tls: t.rows[0]?.ssl === 'true' };
      });
      const how = tls
        ? 'over TLS'
        : spec.ssl_mode === 'prefer'
          ? 'without TLS (the server offers none; "prefer" then connects without)'
          : 'without TLS';
      return { ok: true, message: `Connected to PostgreSQL ${version} ${how}.`, server_version: version, tls };
    } catch (err) {
      if (!(err instanceof WarehouseError)) throw err;
      return { ok: false, message: err.message, server_version: null, tls: null };
    }
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/dwh/feature',
        summary: 'Is the beta on for this account?',
        responses: { 200: json(dwhFeature, 'The switch'), ...commonErrors },
      }),
      async (c) => c.json({ enabled: await featureEnabled(deps, principalOf(c).accountId) }, 200),
    )
    .openapi(
      createRoute({
        ...b,
        method: 'put',
        path: '/v1/dwh/feature',
        summary: 'Turn the beta on or off (administrators)',
        request: { body: jsonBody('{"enabled": true}') },
        responses: { 200: json(dwhFeature, 'The switch'), 400: error('Invalid body'), ...commonErrors },
      }),
      async (c) => {
        const p = principalOf(c);
        requireAdmin(p);
        const { enabled } = await input(c, dwhFeature);
        await setFeature(deps, p.accountId, enabled, (tx) =>
          auditAction(deps, p, 'dwh.feature_change', { details: { enabled } }, tx),
        );
        return c.json({ enabled }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications',
        summary: 'Warehouse authentications (no secrets)',
        responses: { 200: json(authenticationList, 'All of the account'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        return c.json({ authentications: (await listAuthentications(deps, accountId)).map(toWireAuthentication) }, 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'post',
        path: '/v1/authentications',
        summary: 'Store a warehouse authentication',
        request: { body: jsonBody('name, host, port, database, user, password, ssl_mode') },
        responses: {
          200: json(authentication, 'Stored; the password is never shown'),
          400: error('Invalid'),
          409: error('Name taken'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId, userId } = await enabledPrincipal(deps, c);
        const body = await input(c, authenticationCreate);
        await checkHost(body.host);
        const created = await insertAuthentication(deps, accountId, userId, body, (tx, id) =>
          auditAction(deps, principalOf(c), 'dwh.authentication_create', about('authentication', id, body.name), tx),
        );
        return c.json(toWireAuthentication(created), 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'get',
        path: '/v1/authentications/{id}',
        summary: 'One authentication',
        request: { params: idParam },
        responses: { 200: json(authentication, 'It'), 404: error('None'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        return c.json(toWireAuthentication(await requireAuthentication(deps, accountId, c.req.param('id'))), 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'patch',
        path: '/v1/authentications/{id}',
        summary: 'Change an authentication (e.g. a new password, re-encrypted; absent fields stay)',
        request: {
          params: idParam,
          body: jsonBody('Any of name, host, port, database, user, password ("" clears it), ssl_mode'),
        },
        responses: {
          200: json(authentication, 'Changed; the password is never shown'),
          400: error('Invalid'),
          404: error('None'),
          409: error('Name taken'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const row = await requireAuthentication(deps, accountId, c.req.param('id'));
        const body = await input(c, authenticationUpdate);
        await checkHost(body.host);
        const fields = { fields: Object.keys(body) }; // names only: never a password
        const changed = await updateAuthentication(deps, row, body, (tx, next) =>
          auditAction(
            deps,
            principalOf(c),
            'dwh.authentication_update',
            about('authentication', row.id, next.name, fields),
            tx,
          ),
        );
        return c.json(toWireAuthentication(changed), 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'delete',
        path: '/v1/authentications/{id}',
        summary: 'Delete an authentication',
        request: { params: idParam },
        responses: { 200: json(authentication, 'Deleted'), 404: error('None'), 409: error('In use'), ...commonErrors },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const row = await requireAuthentication(deps, accountId, c.req.param('id'));
        await deleteAuthentication(deps, row, (tx) =>
          auditAction(deps, principalOf(c), 'dwh.authentication_delete', about('authentication', row.id, row.name), tx),
        );
        return c.json(toWireAuthentication(row), 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'post',
        path: '/v1/authentications/test',
        summary: 'Check that settings connect, before saving them',
        description:
          'The same fields as creating an authentication (`name` may be left out); nothing is stored. A failed connection is `ok: false` with what to check.',
        request: { body: jsonBody('host, port, database, user, password, ssl_mode') },
        responses: {
          200: json(connectionTest, 'ok true, or false with what to check'),
          400: error('Invalid settings, or a refused address'),
          ...commonErrors,
        },
      }),
      async (c) => {
        await enabledPrincipal(deps, c);
        const body = await input(c, authenticationTest);
        await checkHost(body.host);
        return c.json(await tryConnection(specToTry(deps, null, body)), 200);
      },
    )
    .openapi(
      createRoute({
        ...b,
        method: 'post',
        path: '/v1/authentications/{id}/test',
        summary: 'Check that it connects; fields sent are tried in place of the stored ones (nothing is saved)',
        request: { params: idParam, body: { ...jsonBody('Optional: fields to try instead'), required: false } },
        responses: {
          200: json(connectionTest, 'ok true, or false with what to check'),
          400: error('Invalid settings, or a refused address'),
          404: error('None'),
          ...commonErrors,
        },
      }),
      async (c) => {
        const { accountId } = await enabledPrincipal(deps, c);
        const row = await requireAuthentication(deps, accountId, c.req.param('id'));
        const body = await input(c, authenticationUpdate);
        await checkHost(body.host);
        return c.json(await tryConnection(specToTry(deps, row, body)), 200);
      },
    );
}
