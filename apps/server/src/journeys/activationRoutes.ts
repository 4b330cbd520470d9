import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { activationDocument, activationList, activationRequest, deletedResource } from '@svc/contracts';
import { restSecurity } from '../accounts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { activationsOf } from './activationStore';
import { createActivation, deleteActivation, getActivation, updateActivation } from './activations';
import { activationIdParams, errorResponses, journeyIdParam, jsonBody, jsonResponse, readJson } from './openapi';
import { getJourneyRow } from './store';
import { activationResource } from './wire';

const PARAMS_DOC =
  'syndication_params (or syndicationParams; keys camelCase or snake_case): name, description, scheduleType (none, hourly, daily), scheduleOption ("HH:MM", 24-hour; required unless none), timezone (IANA name, default UTC), connectorConfig (object; for webhooks: method POST, PUT or PATCH, headers [{name, value}] with values stored encrypted and answered masked (a header sent without value keeps its stored value), bodyTemplate: JSON with {{column}} or {{attributes.column}} placeholders filled per profile, one request per profile), connectionId (a result connection of the account, by name), columns (parent segment columns; required unless allColumns or a webhook bodyTemplate), allColumns, emailRecipients, notifyOn.';

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)], tags: ['Journey activations'] };
  const collection = '/entities/journeys/{journeyId}/syndications';
  const item = `${collection}/{activationId}`;
  const one = (description: string) => jsonResponse(activationDocument, description);
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: collection,
      summary: 'The journey’s activations',
      request: { params: journeyIdParam },
      responses: { 200: jsonResponse(activationList, 'Activations, oldest first'), ...errorResponses(401, 404) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: collection,
      summary: 'Create an activation (journeyActivationStep) for a draft or launched journey',
      description: PARAMS_DOC,
      request: { params: journeyIdParam, body: jsonBody(activationRequest, 'Activation body') },
      responses: { 200: one('The activation as stored'), ...errorResponses(400, 401, 403, 404, 415) },
    }),
    get: createRoute({
      ...base,
      method: 'get',
      path: item,
      summary: 'Read an activation',
      request: { params: activationIdParams },
      responses: { 200: one('The activation'), ...errorResponses(401, 404) },
    }),
    update: createRoute({
      ...base,
      method: 'patch',
      path: item,
      summary: 'Change an activation; settings left out keep their values',
      description: `${PARAMS_DOC} While the journey is paused, scheduleType, scheduleOption and timezone cannot change (409).`,
      request: { params: activationIdParams, body: jsonBody(activationRequest, 'Activation body') },
      responses: { 200: one('The activation as stored'), ...errorResponses(400, 401, 403, 404, 409, 415) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: item,
      summary: 'Delete an activation no step of the journey uses',
      request: { params: activationIdParams },
      responses: { 200: jsonResponse(deletedResource, 'Deleted'), ...errorResponses(401, 403, 404, 409) },
    }),
  };
}

/** `/entities/journeys/:journeyId/syndications*`: activations of a journey. */
export function activationRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const { accountId } = principalOf(c);
      const journey = await getJourneyRow(deps.storage.db, accountId, c.req.valid('param').journeyId);
      return c.json(
        {
          data: (await activationsOf(deps.storage.db, accountId, journey.id)).map((a) =>
            activationResource(a, deps.config.secret),
          ),
        },
        200,
      );
    })
    .openapi(r.create, async (c) => {
      const row = await createActivation(deps, principalOf(c), c.req.valid('param').journeyId, await readJson(c));
      return c.json({ data: activationResource(row, deps.config.secret) }, 200);
    })
    .openapi(r.get, async (c) => {
      const { journeyId, activationId } = c.req.valid('param');
      const row = await getActivation(deps, principalOf(c), journeyId, activationId);
      return c.json({ data: activationResource(row, deps.config.secret) }, 200);
    })
    .openapi(r.update, async (c) => {
      const { journeyId, activationId } = c.req.valid('param');
      const row = await updateActivation(deps, principalOf(c), journeyId, activationId, await readJson(c));
      return c.json({ data: activationResource(row, deps.config.secret) }, 200);
    })
    .openapi(r.remove, async (c) => {
      const { journeyId, activationId } = c.req.valid('param');
      const row = await deleteActivation(deps, principalOf(c), journeyId, activationId);
      return c.json(
        { data: { id: String(row.id), type: 'journeyActivationStep' }, meta: { deleted: true as const } },
        200,
      );
    });
}
