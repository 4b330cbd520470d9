import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

describe('system routes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('answers server_status without authentication', async () => {
    const res = await h.call('GET', '/v3/system/server_status', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with the 404 error body', async () => {
    const res = await h.call('GET', '/v3/nothing/here');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: 'Resource not found',
      message: 'Resource not found',
      text: 'Resource not found',
      severity: 'error',
      status_code: 404,
    });
  });

  it('publishes an OpenAPI document that lists its routes', async () => {
    const res = await h.call('GET', '/openapi.json', { key: null });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/v3/system/server_status');
  });

  it('sends security headers', async () => {
    const res = await h.call('GET', '/v3/system/server_status', { key: null });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
