import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  type SavedQuery,
  savedQueryAnswer,
  savedQueryDuplicate,
  savedQueryInput,
  savedQueryList,
  savedQueryPatch,
  savedQueryRunAnswer,
} from '@svc/contracts';
import { restSecurity } from '../accounts';
import type { JobRunner } from '../jobs';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { documentedOnly, errorResponsesFrom, jsonResponse } from '../platform/openapi';
import { readParams } from '../platform/params';
import {
  createSavedQuery,
  duplicateSavedQuery,
  editorCheck,
  removeSavedQuery,
  runSavedQuery,
  updateSavedQuery,
} from './service';
import { listSavedQueries, requireSavedQuery, type SavedQueryView } from './store';
import { toWireSavedQueries } from './wire';

/**
 * `/entities/saved-queries`: queries kept on the server and shared in the account, for the console and the
 * API (an API key or the console session). Anyone in the account lists, reads, runs and duplicates them;
 * administrators, the account owner and each query's owner change and delete it.
 */

const errors = errorResponsesFrom({
  400: 'A field is invalid (empty name, unknown database, text too long, SQL that does more than read); the message and `details.field` name it',
  401: 'No valid API key or console session',
  403: 'A write-only key, or a change by someone other than an administrator or the query’s owner',
  404: 'No such saved query in the caller’s account',
  409: 'A saved query of that name exists in the account',
  415: 'The body is not JSON, form-urlencoded or multipart',
  422: 'The account keeps the most saved queries it may',
});
const idParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '12' }) });
const body = (schema: z.ZodType, description: string) => ({
  description,
  required: true,
  content: { 'application/json': { schema: documentedOnly(schema) } },
});
const answer = jsonResponse(savedQueryAnswer, 'The saved query');

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)], tags: ['Saved queries'] };
  const one = '/entities/saved-queries/{id}';
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/entities/saved-queries',
      summary: 'The account’s saved queries, by name',
      request: {
        query: z.object({
          search: z
            .string()
            .max(200)
            .optional()
            .openapi({ description: 'Only those whose name, description, database or SQL contains this (any case)' }),
        }),
      },
      responses: { 200: jsonResponse(savedQueryList, 'The saved queries'), ...errors(400, 401, 403) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/entities/saved-queries',
      summary: 'Save a query (the caller owns it)',
      description: `name (1 to 255 characters, unique in the account), engine (presto or hive), database (of the account) and query (up to 200,000 characters) are required; description (up to 2,000) is optional.`,
      request: { body: body(savedQueryInput, 'The saved query') },
      responses: { 200: answer, ...errors(400, 401, 403, 409, 415, 422) },
    }),
    get: createRoute({
      ...base,
      method: 'get',
      path: one,
      summary: 'Read a saved query',
      request: { params: idParam },
      responses: { 200: answer, ...errors(401, 403, 404) },
    }),
    update: createRoute({
      ...base,
      method: 'patch',
      path: one,
      summary: 'Change a saved query (administrators and its owner); only the fields sent change',
      request: { params: idParam, body: body(savedQueryPatch, 'The fields to change') },
      responses: { 200: answer, ...errors(400, 401, 403, 404, 409, 415) },
    }),
    duplicate: createRoute({
      ...base,
      method: 'post',
      path: `${one}/duplicate`,
      summary: 'Copy a saved query; the caller owns the copy, which has no last run',
      request: {
        params: idParam,
        body: { ...body(savedQueryDuplicate, 'name: default "Copy of <name>"'), required: false },
      },
      responses: { 200: answer, ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: one,
      summary: 'Delete a saved query (administrators and its owner); the jobs it ran stay',
      request: { params: idParam },
      responses: { 200: answer, ...errors(401, 403, 404) },
    }),
    run: createRoute({
      ...base,
      method: 'post',
      path: `${one}/run`,
      summary: 'Run a saved query as a job of the caller; it becomes the query’s last run',
      request: { params: idParam },
      responses: {
        200: jsonResponse(savedQueryRunAnswer, 'The job issued, and the saved query with it as its last run'),
        ...errors(400, 401, 403, 404),
      },
    }),
  };
}

export function savedQueryRoutes(deps: AppDeps, jobs: JobRunner) {
  const r = routes(deps);
  const db = deps.storage.db;
  /** The rows on the wire as the caller sees them (whether each is theirs to change). */
  const wire = async (c: Parameters<typeof principalOf>[0], rows: SavedQueryView[]) => {
    const p = principalOf(c);
    return toWireSavedQueries(db, p.accountId, rows, await editorCheck(deps, p));
  };
  const single = async (c: Parameters<typeof principalOf>[0], row: SavedQueryView) =>
    (await wire(c, [row]))[0] as SavedQuery;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const search = c.req.valid('query').search?.trim() || null;
      const rows = await listSavedQueries(db, principalOf(c).accountId, search);
      return c.json({ savedQueries: await wire(c, rows) }, 200);
    })
    .openapi(r.create, async (c) => {
      const row = await createSavedQuery(deps, principalOf(c), await readParams(c));
      return c.json({ savedQuery: await single(c, row) }, 200);
    })
    .openapi(r.get, async (c) => {
      const row = await requireSavedQuery(db, principalOf(c).accountId, c.req.valid('param').id);
      return c.json({ savedQuery: await single(c, row) }, 200);
    })
    .openapi(r.update, async (c) => {
      const row = await updateSavedQuery(deps, principalOf(c), c.req.valid('param').id, await readParams(c));
      return c.json({ savedQuery: await single(c, row) }, 200);
    })
    .openapi(r.duplicate, async (c) => {
      const row = await duplicateSavedQuery(deps, principalOf(c), c.req.valid('param').id, await readParams(c));
      return c.json({ savedQuery: await single(c, row) }, 200);
    })
    .openapi(r.remove, async (c) => {
      const row = await removeSavedQuery(deps, principalOf(c), c.req.valid('param').id);
      return c.json({ savedQuery: await single(c, row) }, 200);
    })
    .openapi(r.run, async (c) => {
      const { jobId, row } = await runSavedQuery(deps, jobs, principalOf(c), c.req.valid('param').id);
      return c.json({ jobId: String(jobId), savedQuery: await single(c, row) }, 200);
    });
}
