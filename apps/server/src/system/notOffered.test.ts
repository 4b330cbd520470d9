import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { NOT_OFFERED } from './notOffered';

describe('routes the clients call that this server does not offer', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const concrete = (path: string) => path.replace(/\{\w+\}/g, 'x_1');

  it('answer 422 with the error body and a message naming the alternative, never a bare 404', async () => {
    for (const route of NOT_OFFERED) {
      const res = await h.call(
        route.method.toUpperCase(),
        concrete(route.path),
        route.method === 'post' ? { form: {} } : {},
      );
      expect(res.status, route.path).toBe(422);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort(), route.path).toEqual(['error', 'message', 'severity', 'status_code', 'text']);
      expect(body.message, route.path).toMatch(/not offered by this server: .*\/(v3|entities)\//);
    }
    // td table:export, as the CLI sends it.
    const res = await h.call('POST', '/v3/export/run/shop/orders', {
      form: { storage_type: 's3', bucket: 'b', access_key_id: 'k', secret_access_key: 's' },
    });
    expect(((await res.json()) as { message: string }).message).toContain('GET /v3/job/result/<job_id>');
  });

  it('still ask for a key first, and are in the OpenAPI document', async () => {
    expect((await h.call('POST', '/v3/export/run/shop/orders', { key: null })).status).toBe(401);
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    for (const route of NOT_OFFERED) {
      expect(doc.paths[route.path]?.[route.method]?.responses['422'], route.path).toBeDefined();
    }
  });
});
