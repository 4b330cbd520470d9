import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { parentSegmentInput } from '@svc/contracts';
import { creatorGetsFullControl } from '../folder-permissions';
import type { JobRunner } from '../jobs';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { input } from '../platform/params';
import { audienceBuildJobKind } from './buildJob';
import {
  body,
  errors,
  json,
  parentSegment,
  parentSegmentEditDoc,
  parentSegmentInputDoc,
  population,
  populationRequestDoc,
  profileSample,
  security,
} from './openapi';
import { parseRule } from './rules/parse';
import { segmentRoutes } from './segmentRoutes';
import * as service from './service';
import { listParentSegments, requireParentSegment } from './store';
import { countInWorker, sampleInWorker } from './tasks';
import { toWireParentSegment } from './wire';

const id = z.string().openapi({ description: 'Parent segment id', example: '12' });
const SCHEDULE_TEXT =
  '`scheduleType` `hourly` (at minute MM) or `daily` (at HH:MM), with `scheduleOption` `HH:MM` in `timezone`, rebuilds the profiles at each slot; other types are rebuilt on a change of sources or with POST /audiences/{id}/run. A behavior’s `scheduleType`/`scheduleOption` are stored and shown as sent. ' +
  '`workflowHiveOnly` (false), `hiveEngineVersion` ("stable"), `hivePoolName` and `prestoPoolName` (null) are fixed values kept for the spec’s shape.';

/** PUT replaces the record: a missing `attributes` or `behaviors` would delete them all, so it is refused. */
async function editedRecord(c: Parameters<typeof input>[0]) {
  const raw = await input(c, z.object({ attributes: z.unknown().optional(), behaviors: z.unknown().optional() }));
  const missing = (['attributes', 'behaviors'] as const).filter((k) => raw[k] === undefined);
  if (missing.length > 0) {
    throw badRequest(
      `PUT replaces the whole parent segment, but "${missing.join('" and "')}" ${missing.length > 1 ? 'are' : 'is'} missing. Send the whole record as GET answers it, with your edits (an empty list removes them all).`,
    );
  }
  return input(c, parentSegmentInput);
}
const sampleBody = z.object({ rule: z.unknown(), limit: z.coerce.number().int().min(1).max(100).default(20) });

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Parent segments'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/audiences',
      summary: 'Parent segments of the account',
      responses: { 200: json(z.array(parentSegment), 'Every parent segment'), ...errors(401, 403) },
    }),
    listSlash: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/',
      summary: 'Parent segments of the account, or the one named by `id` (the spec’s spelling, with the slash)',
      description:
        'The spec’s read-modify-write recipe: `GET /audiences/?id=12` answers the record itself, selected by its `id` as `PUT /audiences/` selects it; edit it and send it back whole with PUT. Without `id` the answer is the list of every parent segment.',
      request: {
        query: z.object({
          id: z.string().optional().openapi({ description: 'A parent segment id: answer that record alone' }),
        }),
      },
      responses: {
        200: json(z.union([parentSegment, z.array(parentSegment)]), 'The record (with `id`) or every parent segment'),
        ...errors(400, 401, 403, 404),
      },
    }),
    updateSlash: createRoute({
      ...base,
      method: 'put',
      path: '/audiences/',
      summary: 'Replace the parent segment named by the record’s `id` (the spec’s spelling)',
      request: { body: body(parentSegmentEditDoc.extend({ id: z.string() }), 'The edited record, with its id') },
      responses: { 200: json(parentSegment, 'The updated record'), ...errors(400, 401, 403, 404) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/audiences',
      summary: 'Create a parent segment',
      description:
        'Master table and key, attributes and behaviors; every database, table and column must exist. A root folder is made and a build of the profiles is queued (`buildJobId`). ' +
        SCHEDULE_TEXT,
      request: { body: body(parentSegmentInputDoc, 'The parent segment') },
      responses: { 200: json(parentSegment, 'The parent segment'), ...errors(400, 401, 403) },
    }),
    show: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/{id}',
      summary: 'One parent segment',
      request: { params: z.object({ id }) },
      responses: { 200: json(parentSegment, 'The parent segment'), ...errors(401, 403, 404) },
    }),
    update: createRoute({
      ...base,
      method: 'put',
      path: '/audiences/{id}',
      summary: 'Replace a parent segment with the edited record',
      description:
        'Send the whole record back: without `attributes` or `behaviors` it is 400 (an empty list removes them all). Column `type` may change between number and timestamp on long columns (Unix time) only; a string column is refused, and so is renaming or retyping one column of a behavior with `allColumns: true` (select the columns individually instead). Read-only fields are ignored. A change of sources queues a rebuild.',
      request: { params: z.object({ id }), body: body(parentSegmentEditDoc, 'The edited record') },
      responses: { 200: json(parentSegment, 'The updated record'), ...errors(400, 401, 403, 404) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: '/audiences/{id}',
      summary: 'Delete a parent segment with its segments and folders',
      request: { params: z.object({ id }) },
      responses: { 200: json(z.object({ id: z.string() }), 'Deleted'), ...errors(401, 403, 404, 409) },
    }),
    run: createRoute({
      ...base,
      method: 'post',
      path: '/audiences/{id}/run',
      summary: 'Rebuild the profiles (a job)',
      request: { params: z.object({ id }) },
      description:
        'Queues a build job unless one is queued or running; the record shows `buildJobId` and `buildStatus`. Builds run on create, on a change of sources and on this call only; schedules are not run.',
      responses: { 200: json(parentSegment, 'The record with its build job'), ...errors(401, 403, 404) },
    }),
    population: createRoute({
      ...base,
      method: 'post',
      path: '/audiences/{id}/population',
      summary: 'Count the profiles an unsaved rule matches',
      request: { params: z.object({ id }), body: body(populationRequestDoc, '{rule}') },
      responses: { 200: json(population, 'The count now'), ...errors(400, 401, 403, 404, 409) },
    }),
    sample: createRoute({
      ...base,
      method: 'post',
      path: '/audiences/{id}/sample',
      summary: 'Profiles an unsaved rule matches (up to `limit`, default 20)',
      request: {
        params: z.object({ id }),
        body: body(populationRequestDoc.extend({ limit: z.number().int().optional() }), '{rule, limit}'),
      },
      responses: { 200: json(profileSample, 'Profiles in key order'), ...errors(400, 401, 403, 404, 409) },
    }),
  };
}

/** `/audiences` and `/audiences/:id/segments/*`: master keys or the console session. */
export function audienceRoutes(deps: AppDeps, jobs: JobRunner) {
  jobs.register(audienceBuildJobKind(deps));
  const r = routes(deps);
  const parent = (c: Parameters<typeof principalOf>[0], raw: string) =>
    requireParentSegment(deps.storage.db, principalOf(c).accountId, raw);
  const list = async (c: Parameters<typeof principalOf>[0]) =>
    (await listParentSegments(deps.storage.db, principalOf(c).accountId)).map(toWireParentSegment);
  const app = new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => c.json(await list(c), 200))
    .openapi(r.create, async (c) => {
      const row = await service.createParentSegment(deps, jobs, principalOf(c), await input(c, parentSegmentInput));
      await creatorGetsFullControl(deps, principalOf(c), row);
      return c.json(toWireParentSegment(row), 200);
    })
    .openapi(r.show, async (c) => c.json(toWireParentSegment(await parent(c, c.req.valid('param').id)), 200))
    .openapi(r.listSlash, async (c) => {
      const { id: selected } = c.req.valid('query');
      if (selected !== undefined) return c.json(toWireParentSegment(await parent(c, selected)), 200);
      return c.json(await list(c), 200);
    })
    .openapi(r.updateSlash, async (c) => {
      const { id: raw } = await input(c, z.object({ id: z.union([z.string(), z.number()]).optional() }));
      if (raw === undefined) throw badRequest('Send the whole record with its "id", or PUT /audiences/:id.');
      const row = await parent(c, String(raw));
      const updated = await service.updateParentSegment(deps, jobs, principalOf(c), row, await editedRecord(c));
      return c.json(toWireParentSegment(updated), 200);
    })
    .openapi(r.update, async (c) => {
      const row = await parent(c, c.req.valid('param').id);
      const updated = await service.updateParentSegment(deps, jobs, principalOf(c), row, await editedRecord(c));
      return c.json(toWireParentSegment(updated), 200);
    })
    .openapi(r.remove, async (c) => {
      const row = await parent(c, c.req.valid('param').id);
      await service.deleteParentSegment(deps, jobs, principalOf(c), row);
      return c.json({ id: String(row.id) }, 200);
    })
    .openapi(r.run, async (c) => {
      const row = await parent(c, c.req.valid('param').id);
      return c.json(toWireParentSegment(await service.runBuild(deps, jobs, principalOf(c), row)), 200);
    })
    .openapi(r.population, async (c) => {
      const row = await parent(c, c.req.valid('param').id);
      const { rule } = await input(c, z.object({ rule: z.unknown() }));
      const at = deps.clock.now();
      return c.json({ population: await countInWorker(deps, row, parseRule(rule), at), at: at.toISOString() }, 200);
    })
    .openapi(r.sample, async (c) => {
      const row = await parent(c, c.req.valid('param').id);
      const { rule, limit } = await input(c, sampleBody);
      const at = deps.clock.now();
      return c.json(await sampleInWorker(deps, row, parseRule(rule), at, limit), 200);
    });
  return app.route('/', segmentRoutes(deps));
}
