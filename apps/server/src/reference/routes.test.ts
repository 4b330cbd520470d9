import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { escapeHtml, renderReference, schemaHtml } from './page';

const ROUTES = [
  ['get', '/v3/account/show'],
  ['get', '/v3/user/show'],
  ['get', '/v3/user/list'],
  ['post', '/v3/user/add/{name}'],
  ['post', '/v3/user/remove/{name}'],
  ['get', '/v3/user/apikey/list/{email}'],
  ['post', '/v3/user/apikey/add/{email}'],
  ['post', '/v3/user/apikey/remove/{email}'],
  ['get', '/v3/user/apikey/validate'],
  ['post', '/console-api/login'],
  ['post', '/console-api/logout'],
  ['get', '/console-api/me'],
  ['post', '/console-api/me/password'],
  ['get', '/console-api/users'],
  ['post', '/console-api/users'],
  ['delete', '/console-api/users/{id}'],
  ['get', '/console-api/api-keys'],
  ['post', '/console-api/api-keys'],
  ['delete', '/console-api/api-keys/{id}'],
] as const;

describe('API reference', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('documents every account, user, key and console route in /openapi.json', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    for (const [method, path] of ROUTES) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(Object.keys(op?.responses ?? {})).toContain('200');
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['SVC1', 'consoleSession']));
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['User', 'Account']));
  });

  it('describes the parameters a wire POST takes in every encoding', async () => {
    const doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as {
      paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
    };
    const body = doc.paths['/v3/user/add/{name}']?.post?.requestBody;
    expect(Object.keys(body?.content ?? {})).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(body?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['email', 'password'],
    });
  });

  it('serves a readable page without authentication and without scripts', async () => {
    const res = await h.call('GET', '/api-reference', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.gravatar)[^"<\s]*\.(js|css)/i);
    for (const tag of ['Account', 'Users', 'API keys', 'Console session', 'Console settings', 'System']) {
      expect(html).toContain(`id="tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}"`);
    }
    for (const [method, path] of ROUTES) {
      expect(html).toContain(
        `<span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${path}</code>`,
      );
    }
    expect(html).toContain('Add a user (administrators)');
    expect(html).toContain('<code class="prop">password</code> <span class="req">required</span>');
    expect(html).toContain('href="#schema-user"');
  });

  it('escapes text from the document', () => {
    const html = renderReference({
      info: { title: '<script>alert(1)</script>', version: '1' },
      paths: {
        '/x/{a}': { get: { summary: '"quoted" & <b>', tags: ['T<'], responses: { 200: { description: 'ok' } } } },
      },
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;quoted&quot; &amp; &lt;b&gt;');
    expect(escapeHtml(`'`)).toBe('&#39;');
  });

  it('renders nested, nullable, enumerated and referenced schemas', () => {
    const html = schemaHtml({
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: ['string', 'null'], description: 'the `a` field' },
        b: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
        c: { type: 'string', enum: ['x', 'y'], default: 'x' },
        d: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
      },
    });
    expect(html).toContain('<code class="prop">a</code> <span class="req">required</span>: <code>string | null</code>');
    expect(html).toContain('the <code>a</code> field');
    expect(html).toContain('array of <a href="#schema-thing"><code>Thing</code></a>');
    expect(html).toContain(
      'one of <code>&quot;x&quot;</code>, <code>&quot;y&quot;</code>; default <code>&quot;x&quot;</code>',
    );
    expect(html).toContain('one of:<ul><li><code>boolean</code></li><li><code>string</code></li></ul>');
  });
});
