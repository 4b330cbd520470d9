import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/context';
import { renderReference } from './page';

/**
 * `GET /api-reference`: the OpenAPI document as a readable page, no authentication. Rendered on the
 * first request, once every feature has registered its routes, then kept.
 */
export function referenceRoutes(document: () => Promise<unknown>) {
  let html: string | null = null;
  return new OpenAPIHono<AppEnv>().get('/api-reference', async (c) => {
    html ??= renderReference(await document());
    return c.html(html, 200, { 'cache-control': 'no-cache' });
  });
}
