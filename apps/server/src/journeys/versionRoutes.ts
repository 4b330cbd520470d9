import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { restSecurity } from '../accounts';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { input } from '../platform/params';
import { errorResponses, journeyAnswerSchema, journeyIdParam, jsonBody, jsonResponse } from './openapi';
import { answerFor } from './service';
import { createVersion } from './versions';

const versionRequest = z.object({ name: z.string().max(256).optional() });

/** `POST /entities/journeys/:journeyId/versions`: a draft version of a launched journey. */
export function versionRoutes(deps: AppDeps) {
  const route = createRoute({
    security: restSecurity,
    middleware: [apiKeyAuth(deps)],
    tags: ['Journeys'],
    method: 'post',
    path: '/entities/journeys/{journeyId}/versions',
    summary: 'Copy a launched journey into a draft version that replaces it when launched',
    description:
      'The draft is a duplicate (same segments, copies of the activations) that remembers its source (meta.versionOf). Launching it pauses the source for good (meta.replacedBy) and carries its profiles over: a profile keeps its place when the version kept its stage and its step (same step id, kind and settings; names and links may change); every other profile in the journey leaves it (reason version_changed). Profiles who had left the source stay left, so re-entry rules hold. GET /entities/journeys/{id}/handover previews the counts. Needs Full Control.',
    request: {
      params: journeyIdParam,
      body: { ...jsonBody(versionRequest, '{name} (optional)'), required: false },
    },
    responses: {
      200: jsonResponse(journeyAnswerSchema, 'The new draft version'),
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });
  return new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
    const body = await input(c, versionRequest);
    const { row, notCopied } = await createVersion(deps, principalOf(c), c.req.param('journeyId'), body.name);
    const answer = await answerFor(deps, row);
    return c.json(
      { ...answer, meta: { ...answer.meta, launchViolations: [...notCopied, ...answer.meta.launchViolations] } },
      200,
    );
  });
}
