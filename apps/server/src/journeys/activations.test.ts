import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { activationBody, buildWorld, send, violationsOf, type World } from './testing/world';

/** Activations (syndications): their settings are checked as a whole and answered in camelCase. */

let h: Harness;
let world: World;
let journeyId: string;
beforeAll(async () => {
  h = await createHarness();
  world = await buildWorld(h);
  const res = await send<{ data: { id: string } }>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name: 'Activations', audienceId: world.parentSegmentId },
  });
  journeyId = res.body.data.id;
});
afterAll(() => h.close());

const collection = () => `/entities/journeys/${journeyId}/syndications`;
const P = 'attributes.syndication_params';

interface ActivationDoc {
  data: {
    id: string;
    type: string;
    attributes: { syndication_params: Record<string, unknown>; createdAt: string; updatedAt: string };
    relationships: Record<string, unknown>;
  };
}

describe('creating an activation', () => {
  it('stores the spec’s syndication_params and answers them under the spec’s key (settings camelCase), with its journey', async () => {
    const res = await send<ActivationDoc>(h, 'POST', collection(), activationBody(world));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'journeyActivationStep',
      attributes: {
        syndication_params: {
          name: 'Send to sheet',
          description: null,
          scheduleType: 'hourly',
          scheduleOption: '09:30',
          timezone: 'Asia/Tokyo',
          connectorConfig: { spreadsheetTitle: 'Welcome', sheetTitle: 'Sheet1', mode: 'append' },
          connectionId: world.connection,
          columns: ['customer_id', 'email'],
          allColumns: false,
          emailRecipients: ['ops@example.com'],
          notifyOn: ['onFailure'],
        },
        createdAt: '2026-11-22T09:00:00Z',
        updatedAt: '2026-11-22T09:00:00Z',
      },
      relationships: {
        journey: { data: { id: journeyId, type: 'journey' } },
        createdBy: { data: { id: String(world.account.userId), type: 'user' } },
        updatedBy: { data: { id: String(world.account.userId), type: 'user' } },
      },
    });
    const again = await send<ActivationDoc>(h, 'GET', `${collection()}/${res.body.data.id}`);
    expect(again.body).toEqual(res.body);
    const listed = await send<{ data: ActivationDoc['data'][] }>(h, 'GET', collection());
    expect(listed.body.data.map((a) => a.id)).toContain(res.body.data.id);
  });

  it('accepts the settings under syndicationParams too, and still answers only syndication_params', async () => {
    const spec = activationBody(world).attributes.syndication_params;
    const res = await send<{ data: { id: string; attributes: Record<string, unknown> } }>(h, 'POST', collection(), {
      type: 'journeyActivationStep',
      attributes: { syndicationParams: { ...spec, name: 'Camel key' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data.attributes).sort()).toEqual(['createdAt', 'syndication_params', 'updatedAt']);
    expect(res.body.data.attributes.syndication_params).toMatchObject({ name: 'Camel key', scheduleType: 'hourly' });
    const patched = await send<{ data: { attributes: Record<string, unknown> } }>(
      h,
      'PATCH',
      `${collection()}/${res.body.data.id}`,
      { type: 'journeyActivationStep', attributes: { syndication_params: { description: 'Spec key' } } },
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.attributes.syndication_params).toMatchObject({
      name: 'Camel key',
      description: 'Spec key',
    });
    expect(patched.body.data.attributes.syndicationParams).toBeUndefined();
  });

  it('accepts snake_case keys, a connection by name, all columns and no schedule', async () => {
    const res = await send<ActivationDoc>(h, 'POST', collection(), {
      data: {
        type: 'journeyActivationStep',
        attributes: {
          syndication_params: {
            name: 'Everything, on demand',
            schedule_type: 'none',
            connection_id: world.connection,
            all_columns: true,
            timezone: 'utc',
          },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.attributes.syndication_params).toMatchObject({
      scheduleType: 'none',
      scheduleOption: null,
      allColumns: true,
      columns: [],
      timezone: 'UTC',
      connectorConfig: {},
    });
  });
});

describe('activation settings, one rule at a time', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['an unknown schedule type', { scheduleType: 'fortnightly' }, 'activation.schedule_type', 'scheduleType'],
    [
      'a schedule option that is not HH:MM',
      { scheduleOption: '9.30am' },
      'activation.schedule_option',
      'scheduleOption',
    ],
    ['an hour past 23', { scheduleOption: '24:00' }, 'activation.schedule_option', 'scheduleOption'],
    ['a schedule without a time', { scheduleOption: null }, 'activation.schedule_option', 'scheduleOption'],
    ['a time zone that is not IANA', { timezone: 'Mars/Olympus' }, 'activation.timezone', 'timezone'],
    ['an offset instead of a zone', { timezone: '+09:00' }, 'activation.timezone', 'timezone'],
    ['no connection', { connectionId: null }, 'activation.connection_missing', 'connectionId'],
    [
      'a connection the account does not have',
      { connectionId: 'nowhere' },
      'activation.connection_unknown',
      'connectionId',
    ],
    [
      'a column the parent segment does not have',
      { columns: ['customer_id', 'shoe_size'] },
      'activation.column_unknown',
      'columns',
    ],
    ['no columns and not all columns', { columns: [] }, 'activation.columns_missing', 'columns'],
    ['no name', { name: ' ' }, 'activation.name_missing', 'name'],
    ['a recipient that is not an address', { emailRecipients: ['ops'] }, 'activation.email_invalid', 'emailRecipients'],
    ['a setting activations do not have', { colour: 'red' }, 'activation.field_unknown', 'colour'],
    ['connectorConfig that is not an object', { connectorConfig: [1] }, 'shape.invalid', 'connectorConfig'],
  ];

  it.each(cases)('refuses %s', async (_label, change, code, field) => {
    const found = violationsOf(await send(h, 'POST', collection(), activationBody(world, change)));
    expect(found.map((v) => [v.code, v.path.text])).toEqual([[code, `${P}.${field}`]]);
  });

  it('needs no column list when a webhook body template names the fields', async () => {
    const templated = activationBody(world, {
      columns: [],
      connectorConfig: { method: 'POST', bodyTemplate: '{"email": "{{email}}"}' },
    });
    const res = await send<ActivationDoc>(h, 'POST', collection(), templated);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.attributes.syndication_params).toMatchObject({ columns: [], allColumns: false });
    // A blank template decides nothing: the column list is needed again.
    const blank = activationBody(world, { columns: [], connectorConfig: { method: 'POST', bodyTemplate: '  ' } });
    const found = violationsOf(await send(h, 'POST', collection(), blank));
    expect(found.map((v) => v.code)).toEqual(['activation.columns_missing']);
  });

  it('reports every problem at once', async () => {
    const found = violationsOf(
      await send(
        h,
        'POST',
        collection(),
        activationBody(world, { scheduleType: 'weekly', timezone: 'Nowhere', connectionId: 'x' }),
      ),
    );
    expect(found.map((v) => v.code)).toEqual([
      'activation.schedule_type',
      'activation.timezone',
      'activation.connection_unknown',
    ]);
  });

  it('checks a PATCH against the stored settings merged with the change', async () => {
    const created = await send<ActivationDoc>(h, 'POST', collection(), activationBody(world));
    const item = `${collection()}/${created.body.data.id}`;
    const bad = await send(h, 'PATCH', item, {
      attributes: { syndication_params: { allColumns: false, columns: ['nope'] } },
    });
    expect(violationsOf(bad).map((v) => v.code)).toEqual(['activation.column_unknown']);
    const ok = await send<ActivationDoc>(h, 'PATCH', item, {
      attributes: { syndication_params: { description: 'Daily sheet' } },
    });
    expect(ok.body.data.attributes.syndication_params).toMatchObject({
      description: 'Daily sheet',
      scheduleOption: '09:30',
    });
    const mismatch = await send(h, 'PATCH', item, { id: '424242', attributes: { syndication_params: {} } });
    expect(mismatch.status).toBe(400);
    expect((await send(h, 'GET', `${collection()}/424242`)).status).toBe(404);
    expect((await send(h, 'POST', collection(), { type: 'journeyActivationStep', attributes: {} })).status).toBe(400);
  });
});
