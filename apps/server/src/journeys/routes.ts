import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  AB_PLACEMENT_RULE,
  abTestPlacement,
  deletedResource,
  journeyDuplicateRequest,
  journeySummaryList,
} from '@svc/contracts';
import { abTestStepSchema } from '@svc/journey';
import { restSecurity } from '../accounts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { createAbTest } from './abTest';
import { journeySummaryOf } from './folderEntries';
import { duplicateJourney, pauseJourney, resumeJourney } from './lifecycle';
import {
  errorResponses,
  journeyAnswerSchema,
  journeyIdParam,
  journeyRequestSchema,
  jsonBody,
  jsonResponse,
  readJson,
} from './openapi';
import { answerFor, createJourney, deleteJourney, requestObject, updateJourney } from './service';
import { getJourneyRow, listJourneyRows } from './store';
import { versionRoutes } from './versionRoutes';

const answer = (description: string) => jsonResponse(journeyAnswerSchema, description);

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)], tags: ['Journeys'] };
  const journeyPath = '/entities/journeys/{journeyId}';
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/entities/journeys',
      summary: 'The account’s journeys (without stages), optionally of one parent segment or folder',
      request: {
        query: z.object({
          audienceId: z.string().optional().openapi({ description: 'Only journeys of this parent segment' }),
          folderId: z.string().optional().openapi({ description: 'Only journeys directly in this folder' }),
        }),
      },
      responses: { 200: jsonResponse(journeySummaryList, 'Journeys, oldest first'), ...errorResponses(401) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/entities/journeys',
      summary: 'Create a journey (a draft, or launched when attributes.state is "launched")',
      description:
        'Stage keys may be snake_case or camelCase. The journey goes in relationships.parentFolder (default: the parent segment’s root folder), which needs Full Control. A/B tests with customizedSplit false get even percentages, listed in meta.evenSplits. The body is checked in phases, stopping at the first that fails: its shape (every problem at once, details.phase "shape"; the rules have not run yet), then the parent segment and folder, then Full Control (403), then every journey rule at once. state "launched" works only without activation steps, since activations are created after the journey: create a draft, add activations, then PATCH to launched.',
      request: { body: jsonBody(journeyRequestSchema, 'Journey body: {type, attributes, relationships}') },
      responses: { 200: answer('The journey as stored'), ...errorResponses(400, 401, 403, 415) },
    }),
    duplicate: createRoute({
      ...base,
      method: 'post',
      path: '/entities/journeys/duplicate',
      summary: 'Copy a journey into a new draft of the same parent segment, with copies of its activations',
      description:
        'The copy uses the same segments (linked by id, not copied) and copies of the activations, checked again as if created now: an activation whose settings no longer hold (connection deleted, column gone) is not copied, the steps that used it name no activation, and meta.launchViolations says why (code activation.not_copied).',
      request: {
        body: jsonBody(
          journeyDuplicateRequest,
          '{id: source journey id, type, attributes: {name}, relationships: {parentFolder}}',
        ),
      },
      responses: { 200: answer('The new draft'), ...errorResponses(400, 401, 403, 404) },
    }),
    get: createRoute({
      ...base,
      method: 'get',
      path: journeyPath,
      summary: 'Read a journey',
      request: { params: journeyIdParam },
      responses: {
        200: answer('The journey; meta.launchViolations lists what stops a draft from launching'),
        ...errorResponses(401, 404),
      },
    }),
    addAbTest: createRoute({
      ...base,
      method: 'post',
      path: journeyPath,
      summary: 'Add an A/B test to a draft journey',
      description:
        'The body is the ABTest step (type, name, customizedSplit, uniqueId, variants with id, name, percentage, next; variants[0] is the control), exactly as the spec’s rule 4 shows it, optionally with where it goes: precedingStepId (the step it follows; with precedingPathId naming the decision path or variant when that step splits), or stageId / stageIndex to make it the first step of a stage. ' +
        AB_PLACEMENT_RULE +
        ' The preceding edge then points to the test and the control continues where that edge led, unless the body says where it goes. The new step id is stepId or a generated UUID (meta.insertedStepId).',
      request: {
        params: journeyIdParam,
        body: jsonBody(
          abTestStepSchema
            .extend(abTestPlacement.shape)
            .describe(`The ABTest step and, optionally, its place. ${AB_PLACEMENT_RULE}`),
          'ABTest step and its place',
        ),
      },
      responses: { 200: answer('The journey with the test inserted'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    update: createRoute({
      ...base,
      method: 'patch',
      path: journeyPath,
      summary: 'Change a draft journey, or launch it with attributes.state "launched"',
      description:
        'Attributes left out keep their values; journeyStages, when given, is the complete new list (stages keep their id; stages without one are new). A/B tests are changed or removed by sending the stage steps as they should be (spec rules 5–6). Launched journeys answer 409, paused or not. Checked in phases like creation: shape (details.phase "shape"), then references, then permission, then every rule at once.',
      request: { params: journeyIdParam, body: jsonBody(journeyRequestSchema, 'Journey body with id') },
      responses: { 200: answer('The journey as stored'), ...errorResponses(400, 401, 403, 404, 409, 415) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: journeyPath,
      summary: 'Delete a draft, or a launched journey that is paused',
      request: { params: journeyIdParam },
      responses: { 200: jsonResponse(deletedResource, 'Deleted'), ...errorResponses(401, 403, 404, 409) },
    }),
    pause: createRoute({
      ...base,
      method: 'patch',
      path: `${journeyPath}/pause`,
      summary: 'Pause a launched journey (wait time stops counting; activation schedules are frozen)',
      request: { params: journeyIdParam },
      responses: { 200: answer('paused true, pausedAt set'), ...errorResponses(401, 403, 404, 409) },
    }),
    resume: createRoute({
      ...base,
      method: 'patch',
      path: `${journeyPath}/resume`,
      summary: 'Resume a paused journey; the pause period is recorded as a journey event',
      request: { params: journeyIdParam },
      responses: { 200: answer('paused false'), ...errorResponses(401, 403, 404, 409) },
    }),
  };
}

/** `/entities/journeys*`: journey documents and their states (spec, Journeys and related). */
export function journeyRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const { audienceId, folderId } = c.req.valid('query');
      const rows = await listJourneyRows(deps.storage.db, principalOf(c).accountId, {
        parentSegmentId: audienceId,
        folderId,
      });
      return c.json({ data: rows.map(journeySummaryOf) }, 200);
    })
    .openapi(r.create, async (c) => {
      const row = await createJourney(deps, principalOf(c), await readJson(c));
      return c.json(await answerFor(deps, row), 200);
    })
    .openapi(r.duplicate, async (c) => {
      const { row, notCopied } = await duplicateJourney(deps, principalOf(c), await readJson(c));
      const answer = await answerFor(deps, row);
      // Activations not copied are said once, here; later reads show only `activation.missing`.
      return c.json(
        { ...answer, meta: { ...answer.meta, launchViolations: [...notCopied, ...answer.meta.launchViolations] } },
        200,
      );
    })
    .openapi(r.get, async (c) => {
      const row = await getJourneyRow(deps.storage.db, principalOf(c).accountId, c.req.valid('param').journeyId);
      return c.json(await answerFor(deps, row), 200);
    })
    .openapi(r.addAbTest, async (c) => {
      const body = requestObject(await readJson(c));
      return c.json(await createAbTest(deps, principalOf(c), c.req.valid('param').journeyId, body), 200);
    })
    .openapi(r.update, async (c) => {
      return c.json(await updateJourney(deps, principalOf(c), c.req.valid('param').journeyId, await readJson(c)), 200);
    })
    .openapi(r.remove, async (c) => {
      const row = await deleteJourney(deps, principalOf(c), c.req.valid('param').journeyId);
      return c.json({ data: { id: String(row.id), type: 'journey' }, meta: { deleted: true as const } }, 200);
    })
    .openapi(r.pause, async (c) => {
      const row = await pauseJourney(deps, principalOf(c), c.req.valid('param').journeyId);
      return c.json(await answerFor(deps, row), 200);
    })
    .openapi(r.resume, async (c) => {
      const row = await resumeJourney(deps, principalOf(c), c.req.valid('param').journeyId);
      return c.json(await answerFor(deps, row), 200);
    })
    .route('/', versionRoutes(deps));
}
