import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

/** The contract's error body (spec, Errors): five fields; a 404 exactly those, its subject in a header. */

type Json = Record<string, unknown>;
const FIVE = ['error', 'message', 'severity', 'status_code', 'text'];
const NOT_FOUND = {
  error: 'Resource not found',
  message: 'Resource not found',
  text: 'Resource not found',
  severity: 'error',
  status_code: 404,
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('404 answers', () => {
  it('carry exactly the five fields on every API family; what was not found goes to X-SVC-Not-Found', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/v3/no_such_route', 'GET /v3/no_such_route'],
      ['GET', '/v1/no_such_route', 'GET /v1/no_such_route'],
      ['GET', '/v3/database/show/nothing_here', 'database'],
      ['GET', '/v3/table/show/nothing_here/table_one', 'database'],
      ['GET', '/entities/journeys/999999', 'journey'],
      ['GET', '/audiences/999999', 'parent segment'],
      ['GET', '/v3/job/show/999999', 'job'],
    ];
    for (const [method, path, subject] of cases) {
      const res = await h.call(method, path);
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toEqual(NOT_FOUND);
      expect(res.headers.get('x-svc-not-found'), path).toBe(subject);
    }
  });

  it('other errors keep the five fields and may add details beside them, /v1 included', async () => {
    const v3 = await h.call('POST', '/v3/database/create/Bad-Name');
    expect(v3.status).toBe(400);
    const v3Body = (await v3.json()) as Json;
    expect(Object.keys(v3Body)).toEqual(expect.arrayContaining(FIVE));
    expect(v3Body).toMatchObject({ error: 'Bad Request', severity: 'error', status_code: 400, text: v3Body.message });
    const v1 = await h.call('GET', '/v1/dwh/', { key: h.admin.writeOnlyKey });
    expect(v1.status).toBe(403);
    const v1Body = (await v1.json()) as Json;
    expect(v1Body).toMatchObject({ error: 'Forbidden', severity: 'error', status_code: 403, text: v1Body.message });
    expect(typeof v1Body.message).toBe('string');
    expect(v1.headers.get('x-svc-not-found')).toBeNull();
  });
});

describe('the OpenAPI document', () => {
  it('describes every 404 with the five-field NotFound body and its header, and list items with five fields', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
      components: { schemas: Record<string, Json> };
    };
    expect(doc.components.schemas.NotFound).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['error', 'message', 'text', 'severity', 'status_code'],
    });
    const notFounds = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.responses?.['404'] ? [op.responses['404']] : [])),
    );
    expect(notFounds.length).toBeGreaterThan(30);
    for (const r of notFounds) {
      expect(r.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/NotFound' } } });
      expect(r.headers).toHaveProperty('X-SVC-Not-Found');
    }
    const list = JSON.stringify(doc.paths['/v3/database/list']);
    expect(list).toContain('"required":["name","count","created_at","updated_at","organization","permission"]');
    expect(list).not.toContain('delete_protected');
  });
});
