import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/context';

const serverStatus = createRoute({
  method: 'get',
  path: '/v3/system/server_status',
  tags: ['System'],
  summary: 'Server status (no authentication)',
  responses: {
    200: {
      description: 'The server is up',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
  },
});

/** Routes every client may call without a key. */
export function systemRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(serverStatus, (c) => c.json({ status: 'ok' as const }, 200));
}
