import type { ErrorBody, JourneyViolation } from '@svc/contracts';
import { parentSegment as fixtureParent } from '@svc/journey/fixtures';
import { expect } from 'vitest';
import type { NewAccount } from '../../accounts';
import { appendRows, requireDatabase } from '../../data';
import type { Harness } from '../../testing/harness';

/**
 * A parent segment built through the real APIs (a customers table imported with the table store,
 * `/audiences`, its segments, a result connection), and a map from the ids the spec-example fixtures
 * use (segments 301…, activations 901…, audience 5732, folder 3456) to the real ones, so fixtures can be
 * sent as they are written.
 */

export interface World {
  account: NewAccount;
  key: string;
  parentSegmentId: string;
  rootFolderId: string;
  /** Real segment id by fixture id ('301' → '4'). */
  segments: Record<string, string>;
  connection: string;
  /** Fixture id → real id, for `rewrite`. */
  ids: Map<string, string>;
}

let seq = 0;

export async function buildWorld(h: Harness, account: NewAccount = h.admin): Promise<World> {
  const key = account.masterKey;
  const db = `crm_${++seq}`;
  expect((await h.call('POST', `/v3/database/create/${db}`, { key })).status).toBe(200);
  expect((await h.call('POST', `/v3/table/create/${db}/customers/log`, { key })).status).toBe(200);
  await appendRows(h.deps, await requireDatabase(h.deps.storage.db, account.accountId, db), 'customers', [
    { customer_id: 'c1', email: 'ann@example.com', region: 'west', time: 1 },
    { customer_id: 'c2', email: 'bob@example.com', region: 'east', time: 1 },
  ]);
  const created = await h.call('POST', '/audiences', {
    key,
    json: {
      name: `Customers ${seq}`,
      master: { parentDatabaseName: db, parentTableName: 'customers', parentKey: 'customer_id' },
      attributes: [
        { name: 'email', parentColumn: 'email', type: 'string' },
        { name: 'region', parentColumn: 'region', type: 'string' },
      ],
    },
  });
  const audience = (await created.json()) as { id: string; rootFolderId: string; message?: string };
  expect(created.status, audience.message).toBe(200);
  const segments: Record<string, string> = {};
  for (const fixtureId of fixtureParent.segmentIds) {
    const res = await h.call('POST', `/audiences/${audience.id}/segments`, {
      key,
      json: {
        name: `Segment ${fixtureId}`,
        rule: {
          type: 'And',
          conditions: [
            { type: 'Value', leftValue: { name: 'region' }, operator: { type: 'Equal', rightValue: fixtureId } },
          ],
        },
      },
    });
    const body = (await res.json()) as { id: string; message?: string };
    expect(res.status, body.message).toBe(200);
    segments[fixtureId] = body.id;
  }
  const connection = `out_${seq}`;
  const saved = await h.call('POST', `/v3/result/create/${connection}`, { key, form: { url: 'td://@/out/table' } });
  expect(saved.status).toBe(200);
  const ids = new Map<string, string>([
    ['5732', audience.id],
    ['3456', audience.rootFolderId],
    ...Object.entries(segments),
  ]);
  return {
    account,
    key,
    parentSegmentId: audience.id,
    rootFolderId: audience.rootFolderId,
    segments,
    connection,
    ids,
  };
}

/** A deep copy with every leaf value that is a fixture id (as string or number) replaced by the real id. */
export function rewrite<T>(value: T, ids: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' || typeof v === 'number') return ids.get(String(v)) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A minimal valid activation body for the world's parent segment and connection. */
export function activationBody(world: World, extra: Record<string, unknown> = {}) {
  return {
    type: 'journeyActivationStep',
    attributes: {
      syndication_params: {
        name: 'Send to sheet',
        scheduleType: 'hourly',
        scheduleOption: '09:30',
        timezone: 'Asia/Tokyo',
        connectorConfig: { spreadsheetTitle: 'Welcome', sheetTitle: 'Sheet1', mode: 'append' },
        connectionId: world.connection,
        columns: ['customer_id', 'email'],
        allColumns: false,
        emailRecipients: ['ops@example.com'],
        notifyOn: ['onFailure'],
        ...extra,
      },
    },
  };
}

export interface JsonAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export async function send<T = Record<string, unknown>>(
  h: Harness,
  method: string,
  path: string,
  json?: unknown,
  key?: string,
): Promise<JsonAnswer<T>> {
  const res = await h.call(method, path, { ...(json === undefined ? {} : { json }), ...(key ? { key } : {}) });
  return { status: res.status, body: (await res.json()) as T };
}

/** The violations of a 400 answer. */
export function violationsOf(answer: JsonAnswer): JourneyViolation[] {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  return ((answer.body as unknown as ErrorBody).details?.violations ?? []) as JourneyViolation[];
}

/** A non-administrator user of the account with a master key. */
export async function member(h: Harness, name: string): Promise<{ userId: string; key: string }> {
  const added = await h.call('POST', `/v3/user/add/${name}`, {
    form: { email: `${name}@first.test`, password: 'long enough pw' },
  });
  expect(added.status).toBe(200);
  const keyRes = await h.call('POST', `/v3/user/apikey/add/${name}`);
  const { apikey } = (await keyRes.json()) as { apikey: string };
  const check = await h.call('GET', '/v3/user/apikey/validate', { key: apikey });
  const { user_id } = (await check.json()) as { user_id: number };
  return { userId: String(user_id), key: apikey };
}

/** A one-stage journey document ("Welcome": everyone of the world's first segment, then End), as POSTed. */
export function welcomeJourney(world: World, name: string, state: string) {
  return {
    type: 'journey',
    attributes: {
      name,
      audienceId: world.parentSegmentId,
      state,
      journeyStages: [
        {
          name: 'Welcome',
          entryCriteria: { name: 'Everyone', segmentId: Object.values(world.segments)[0] },
          steps: { end: { type: 'End' } },
          rootStep: 'end',
        },
      ],
    },
  };
}

/** A world and an empty draft journey in it, named `name`. */
export async function worldWithDraftJourney(h: Harness, name: string): Promise<{ world: World; journeyId: string }> {
  const world = await buildWorld(h);
  const res = await send<{ data: { id: string } }>(h, 'POST', '/entities/journeys', {
    type: 'journey',
    attributes: { name, audienceId: world.parentSegmentId },
  });
  return { world, journeyId: res.body.data.id };
}
