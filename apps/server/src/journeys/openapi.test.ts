import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { end, stage, wait } from './testing/steps';
import { activationBody, buildWorld, send, type World } from './testing/world';

/** Every journeys route is in /openapi.json, and real answers match the documented schemas. */

let h: Harness;
let world: World;
let doc: { paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
  doc = (await (await h.call('GET', '/openapi.json', { key: null })).json()) as typeof doc;
});
afterAll(() => h.close());

const routes: Array<[string, string]> = [
  ['get', '/entities/journeys'],
  ['post', '/entities/journeys'],
  ['post', '/entities/journeys/duplicate'],
  ['get', '/entities/journeys/{journeyId}'],
  ['post', '/entities/journeys/{journeyId}'],
  ['patch', '/entities/journeys/{journeyId}'],
  ['delete', '/entities/journeys/{journeyId}'],
  ['patch', '/entities/journeys/{journeyId}/pause'],
  ['patch', '/entities/journeys/{journeyId}/resume'],
  ['get', '/entities/journeys/{journeyId}/syndications'],
  ['post', '/entities/journeys/{journeyId}/syndications'],
  ['get', '/entities/journeys/{journeyId}/syndications/{activationId}'],
  ['patch', '/entities/journeys/{journeyId}/syndications/{activationId}'],
  ['delete', '/entities/journeys/{journeyId}/syndications/{activationId}'],
  ['get', '/entities/folders/{folderId}/permissions'],
  ['put', '/entities/folders/{folderId}/permissions'],
];

function responseErrors(method: string, path: string, body: unknown): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajv.addSchema(doc as object, 'oas');
  const pointer = `/paths/${path.replace(/\//g, '~1')}/${method}/responses/200/content/application~1json/schema`;
  const validate = ajv.compile({ $ref: `oas#${pointer}` });
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('the OpenAPI document', () => {
  it.each(routes)('documents %s %s', (method, path) => {
    expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });

  it('describes the journey, activation and permission answers as they are', async () => {
    const created = await send<{ data: { id: string } }>(h, 'POST', '/entities/journeys', {
      type: 'journey',
      attributes: {
        name: 'Documented',
        audienceId: world.parentSegmentId,
        journeyStages: [stage(world.segments['301'] as string, 'w', { w: wait('e'), e: end() })],
      },
    });
    expect(responseErrors('post', '/entities/journeys', created.body)).toEqual([]);
    const id = created.body.data.id;
    const activation = await send(h, 'POST', `/entities/journeys/${id}/syndications`, activationBody(world));
    expect(responseErrors('post', '/entities/journeys/{journeyId}/syndications', activation.body)).toEqual([]);
    const permissions = await send(h, 'GET', `/entities/folders/${world.rootFolderId}/permissions`);
    expect(responseErrors('get', '/entities/folders/{folderId}/permissions', permissions.body)).toEqual([]);
    const listed = await send(h, 'GET', `/entities/journeys?audienceId=${world.parentSegmentId}`);
    expect(responseErrors('get', '/entities/journeys', listed.body)).toEqual([]);
    const gone = await send(h, 'DELETE', `/entities/journeys/${id}`);
    expect(responseErrors('delete', '/entities/journeys/{journeyId}', gone.body)).toEqual([]);
    // The schema is live: a journey without its attributes does not pass.
    expect(responseErrors('get', '/entities/journeys/{journeyId}', { data: { id, type: 'journey' } })).not.toEqual([]);
  });
});
