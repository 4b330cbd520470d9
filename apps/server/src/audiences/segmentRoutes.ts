import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { input } from '../platform/params';
import { body, errors, json, population, profileSample, security, segmentDoc, segmentInputDoc } from './openapi';
import { readRule } from './rules/parse';
import * as service from './service';
import { listSegments, requireParentSegment, requireSegment } from './store';
import { countInWorker, sampleInWorker } from './tasks';
import { toWireSegment } from './wire';

const id = z.string().openapi({ description: 'Parent segment id', example: '12' });
const segmentId = z.string().openapi({ description: 'Segment id', example: '301' });
const both = z.object({ id, segmentId });
const sampleQuery = z.object({ limit: z.string().optional().openapi({ description: '1 to 100 (default 20)' }) });

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Segments'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/{id}/segments',
      summary: 'Segments of a parent segment',
      request: { params: z.object({ id }) },
      responses: { 200: json(z.array(segmentDoc), 'Every segment'), ...errors(401, 403, 404) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/audiences/{id}/segments',
      summary: 'Create a segment',
      description:
        'In the given folder of the parent segment (default: its root folder). Needs Full Control on that folder (403 with View).',
      request: { params: z.object({ id }), body: body(segmentInputDoc, 'name, description, folderId, rule') },
      responses: { 200: json(segmentDoc, 'The segment'), ...errors(400, 401, 403, 404) },
    }),
    show: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/{id}/segments/{segmentId}',
      summary: 'One segment',
      request: { params: both },
      responses: { 200: json(segmentDoc, 'The segment'), ...errors(401, 403, 404) },
    }),
    update: createRoute({
      ...base,
      method: 'put',
      path: '/audiences/{id}/segments/{segmentId}',
      summary: 'Replace a segment',
      description:
        'Without `folderId` the segment stays in its folder. Needs Full Control on its folder and on the folder it moves to (403 with View).',
      request: { params: both, body: body(segmentInputDoc, 'name, description, folderId, rule') },
      responses: { 200: json(segmentDoc, 'The segment'), ...errors(400, 401, 403, 404) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: '/audiences/{id}/segments/{segmentId}',
      summary: 'Delete a segment',
      request: { params: both },
      description:
        'Refused (409) while another segment or a journey uses it. Needs Full Control on its folder (403 with View).',
      responses: { 200: json(z.object({ id: z.string() }), 'Deleted'), ...errors(401, 403, 404, 409) },
    }),
    population: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/{id}/segments/{segmentId}/population',
      summary: 'The segment’s population now',
      request: { params: both },
      responses: { 200: json(population, 'Profiles in the segment'), ...errors(400, 401, 403, 404, 409) },
    }),
    sample: createRoute({
      ...base,
      method: 'get',
      path: '/audiences/{id}/segments/{segmentId}/sample',
      summary: 'Some profiles of the segment',
      request: { params: both, query: sampleQuery },
      responses: { 200: json(profileSample, 'Profiles in key order'), ...errors(400, 401, 403, 404, 409) },
    }),
  };
}

function sampleLimit(raw: string | undefined): number {
  const n = raw === undefined ? 20 : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw badRequest('"limit" must be a whole number from 1 to 100.');
  return n;
}

/** `/audiences/:id/segments/*`. */
export function segmentRoutes(deps: AppDeps) {
  const r = routes(deps);
  const parent = (c: Context<AppEnv>, raw: string) =>
    requireParentSegment(deps.storage.db, principalOf(c).accountId, raw);
  const pair = async (c: Context<AppEnv>, ids: { id: string; segmentId: string }) => {
    const p = await parent(c, ids.id);
    return { p, s: await requireSegment(deps.storage.db, p, ids.segmentId) };
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = await parent(c, c.req.valid('param').id);
      return c.json((await listSegments(deps.storage.db, p.account_id, p.id)).map(toWireSegment), 200);
    })
    .openapi(r.create, async (c) => {
      const p = await parent(c, c.req.valid('param').id);
      const row = await service.createSegment(deps, principalOf(c), p, await input(c, service.segmentBody));
      return c.json(toWireSegment(row), 200);
    })
    .openapi(r.show, async (c) => c.json(toWireSegment((await pair(c, c.req.valid('param'))).s), 200))
    .openapi(r.update, async (c) => {
      const { p, s } = await pair(c, c.req.valid('param'));
      const body = await input(c, service.segmentBody);
      return c.json(toWireSegment(await service.updateSegment(deps, principalOf(c), p, s, body)), 200);
    })
    .openapi(r.remove, async (c) => {
      const { p, s } = await pair(c, c.req.valid('param'));
      await service.deleteSegment(deps, principalOf(c), p, s);
      return c.json({ id: String(s.id) }, 200);
    })
    .openapi(r.population, async (c) => {
      const { p, s } = await pair(c, c.req.valid('param'));
      const at = deps.clock.now();
      const n = await countInWorker(deps, p, readRule(s.rule_json), at);
      return c.json({ population: n, at: at.toISOString() }, 200);
    })
    .openapi(r.sample, async (c) => {
      const { p, s } = await pair(c, c.req.valid('param'));
      const limit = sampleLimit(c.req.valid('query').limit);
      const at = deps.clock.now();
      const rule = readRule(s.rule_json);
      return c.json(await sampleInWorker(deps, p, rule, at, limit), 200);
    });
}
