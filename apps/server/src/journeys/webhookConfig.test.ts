import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { activationBody, send, violationsOf, type World, worldWithDraftJourney } from './testing/world';

/** The webhook settings of an activation's connectorConfig: checked, limited, header values sealed. */

let h: Harness;
let world: World;
let journeyId: string;
beforeAll(async () => {
  h = await createHarness();
  ({ world, journeyId } = await worldWithDraftJourney(h, 'Webhooks'));
});
afterAll(() => h.close());

const collection = () => `/entities/journeys/${journeyId}/syndications`;
const P = 'attributes.syndication_params.connectorConfig';
const withConfig = (connectorConfig: unknown) => activationBody(world, { connectorConfig });

describe('webhook settings', () => {
  const many = Array.from({ length: 21 }, (_, i) => ({ name: `X-H${i}`, value: 'v' }));
  const cases: Array<[string, unknown, string, string]> = [
    ['a method other than POST, PUT or PATCH', { method: 'DELETE' }, 'activation.method', 'method'],
    ['headers that are not a list', { headers: { a: 'b' } }, 'shape.invalid', 'headers'],
    ['more than 20 headers', { headers: many }, 'activation.headers', 'headers'],
    [
      'a header name with a space',
      { headers: [{ name: 'X Key', value: 'v' }] },
      'activation.header_name',
      'headers[0]',
    ],
    [
      'a header the server sets',
      { headers: [{ name: 'Host', value: 'evil' }] },
      'activation.header_name',
      'headers[0]',
    ],
    [
      'a header value with a line break',
      { headers: [{ name: 'X-Key', value: 'a\r\nX-Injected: 1' }] },
      'activation.header_value',
      'headers[0]',
    ],
    [
      'a header value over 4096 characters',
      { headers: [{ name: 'X-Key', value: 'v'.repeat(4097) }] },
      'activation.header_value',
      'headers[0]',
    ],
    [
      'the same header twice',
      {
        headers: [
          { name: 'X-Key', value: 'a' },
          { name: 'x-key', value: 'b' },
        ],
      },
      'activation.header_name',
      'headers[1]',
    ],
    [
      'a template over 8192 characters',
      { bodyTemplate: `"${'x'.repeat(8200)}"` },
      'activation.body_template',
      'bodyTemplate',
    ],
    ['a template that is not JSON', { bodyTemplate: '{"a": {{vip}' }, 'activation.body_template', 'bodyTemplate'],
    [
      'a placeholder that is code',
      { bodyTemplate: '{"a": "{{ process.exit() }}"}' },
      'activation.body_template',
      'bodyTemplate',
    ],
    ['a template that is not text', { bodyTemplate: 42 }, 'shape.invalid', 'bodyTemplate'],
  ];

  it.each(cases)('refuses %s', async (_label, config, code, field) => {
    const found = violationsOf(await send(h, 'POST', collection(), withConfig(config)));
    expect(found.map((v) => [v.code, v.path.text])).toEqual([[code, `${P}.${field}`]]);
  });

  it('names the unknown field of a template', async () => {
    const answer = await send<{ message: string }>(
      h,
      'POST',
      collection(),
      withConfig({ bodyTemplate: '{"tier": "{{loyalty_tier}}", "size": "{{attributes.shoe_size}}"}' }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('"loyalty_tier"');
    expect(answer.body.message).toContain('"shoe_size"');
  });

  it('stores header values sealed and answers them masked', async () => {
    const token = 'Bearer abcdefghijklmnop-WXYZ';
    const res = await send<{ data: { id: string; attributes: { syndication_params: Record<string, unknown> } } }>(
      h,
      'POST',
      collection(),
      withConfig({
        method: 'put',
        headers: [
          { name: 'Authorization', value: token },
          { name: 'X-Short', value: 'abc' },
        ],
        bodyTemplate: '{"key": "{{attributes.customer_id}}"}',
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.attributes.syndication_params.connectorConfig).toEqual({
      method: 'PUT',
      headers: [
        { name: 'Authorization', value: null, masked: '••••••••WXYZ', set: true },
        { name: 'X-Short', value: null, masked: '••••••••', set: true },
      ],
      bodyTemplate: '{"key": "{{attributes.customer_id}}"}',
    });
    const stored = await one<{ params: string }>(
      h.deps.storage.db,
      sql`SELECT params FROM journey_activations WHERE id = ${Number(res.body.data.id)}`,
    );
    expect(stored?.params).not.toContain('abcdefghijklmnop');
    expect(stored?.params).toContain('sealed:v1:');
    const listed = await h.call('GET', collection());
    expect(await listed.text()).not.toContain('abcdefghijklmnop');
    expect(h.logs.join('\n')).not.toContain('abcdefghijklmnop');
  });

  it('copies sealed header values as they are when the journey is duplicated', async () => {
    const made = await send<{ data: { id: string } }>(
      h,
      'POST',
      collection(),
      withConfig({ headers: [{ name: 'X-Api-Key', value: 'copy-me-0123456789' }] }),
    );
    expect(made.status).toBe(200);
    const copy = await send<{ data: { id: string } }>(h, 'POST', '/entities/journeys/duplicate', {
      id: journeyId,
      type: 'journey',
    });
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    const source = await one<{ params: string }>(
      h.deps.storage.db,
      sql`SELECT params FROM journey_activations WHERE id = ${Number(made.body.data.id)}`,
    );
    const copied = await one<{ params: string }>(
      h.deps.storage.db,
      sql`SELECT params FROM journey_activations WHERE journey_id = ${Number(copy.body.data.id)}
          AND params LIKE ${'%X-Api-Key%'}`,
    );
    const headerOf = (p?: { params: string }) => JSON.parse(p?.params ?? '{}').connectorConfig.headers;
    expect(headerOf(copied)).toEqual(headerOf(source));
    const answered = await h.call('GET', `/entities/journeys/${copy.body.data.id}/syndications`);
    expect(await answered.text()).toContain('••••••••6789');
  });
});
