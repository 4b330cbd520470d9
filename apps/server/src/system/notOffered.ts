import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { apiKeyAuth } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { unprocessable } from '../platform/errors';
import { errorResponsesFrom } from '../platform/openapi';

/**
 * Routes the Treasure Data clients call that this service deliberately does not offer. Each answers 422
 * with a message that names what to use instead, never a bare 404. td-js-sdk's lookups that are not offered
 * answer from ingest/sdkRoutes.ts, with the CORS headers a browser needs to read them.
 */
interface NotOffered {
  method: 'get' | 'post';
  /** OpenAPI form of the path. */
  path: string;
  /** Who calls it. */
  caller: string;
  message: string;
}

const QUERY_INSTEAD =
  'run a query (POST /v3/job/issue/presto/<database>) and read its rows from GET /v3/job/result/<job_id>';

export const NOT_OFFERED: readonly NotOffered[] = [
  {
    method: 'post',
    path: '/v3/export/run/{db}/{table}',
    caller: 'td table:export, export_data / export',
    message: `Table export to S3 or other storage is not offered by this server: ${QUERY_INSTEAD}, or send the result to a result connection (POST /v3/result/create/<name>).`,
  },
  {
    method: 'post',
    path: '/v3/job/result_export/{job_id}',
    caller: 'td job:result --result, result_export',
    message: `Exporting a finished job's result is not offered by this server: read the rows from GET /v3/job/result/<job_id>.`,
  },
  {
    method: 'post',
    path: '/v3/table/partial_delete/{db}/{table}',
    caller: 'td table:partial_delete, partial_delete',
    message:
      'Deleting part of a table is not offered by this server: delete the table (POST /v3/table/delete/<db>/<table>) and import the rows to keep again, or leave the rows out at query time with TD_TIME_RANGE.',
  },
  {
    method: 'get',
    path: '/v3/account/core_utilization',
    caller: 'account_core_utilization',
    message:
      'Core utilization history is not offered by this server: see the jobs that run now with GET /v3/job/list?status=running.',
  },
  ...(['list', 'test'] as const).map((verb) => aclRoute('get', verb)),
  ...(['grant', 'revoke'] as const).map((verb) => aclRoute('post', verb)),
];

function aclRoute(method: 'get' | 'post', verb: string): NotOffered {
  return {
    method,
    path: `/v3/acl/${verb}`,
    caller: `td acl:*, ${verb}_access_control${verb === 'list' ? 's' : ''}`,
    message:
      'Access control lists are not offered by this server: a user is an administrator or not (POST /v3/user/add, the console’s Users page), and folder permissions (/entities/folders/<id>/permissions) grant access to audiences and journeys.',
  };
}

const errors = errorResponsesFrom({
  401: 'No valid API key',
  403: 'A write-only key',
  422: 'Not offered by this server; the message names what to use instead',
});

/** Mounts the not-offered answers on `app`, behind the usual key check. */
export function mountNotOffered(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  const auth = apiKeyAuth(deps);
  for (const route of NOT_OFFERED) {
    const honoPath = route.path.replace(/\{(\w+)\}/g, ':$1');
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    app.openAPIRegistry.registerPath(
      createRoute({
        method: route.method,
        path: route.path,
        tags: ['Not offered'],
        summary: `Not offered (${route.caller})`,
        description: route.message,
        security: [{ SVC1: [] }],
        ...(params.length > 0
          ? { request: { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } }
          : {}),
        responses: errors(401, 403, 422),
      }),
    );
    app.on(route.method.toUpperCase(), honoPath, auth, () => {
      throw unprocessable(route.message);
    });
  }
}
