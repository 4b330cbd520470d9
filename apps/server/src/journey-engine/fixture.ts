import type { Harness } from '../testing/harness';
import { recountFigures } from './figureCounts';
import { recountPositions } from './positions';

/**
 * Test set-up through the real HTTP API: customer data by postback, a parent segment built by its job,
 * segments, a result connection, an activation and a launched journey.
 */

export const DAY_MS = 86_400_000;

export async function json<T = Record<string, unknown>>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const body = (await r.json()) as T;
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${JSON.stringify(body)}`);
  return body;
}

export interface Person {
  customer_id: string;
  vip: number;
  /** Unix seconds, 0 for never: the day the profile joins "engaged", "buyer", "unsubscribed". */
  engaged_at: number;
  bought_at: number;
  unsub_at: number;
}

/** The parent segment of the shop's customers, as `POST /audiences` takes it (tests and the heavy-work bench). */
export const shopParentSegment = {
  name: 'Shop customers',
  master: { parentDatabaseName: 'shop', parentTableName: 'customers', parentKey: 'customer_id' },
  attributes: [
    { name: 'vip', parentColumn: 'vip', type: 'number' },
    { name: 'engaged_at', parentColumn: 'engaged_at', type: 'timestamp' },
    { name: 'bought_at', parentColumn: 'bought_at', type: 'timestamp' },
    { name: 'unsub_at', parentColumn: 'unsub_at', type: 'timestamp' },
  ],
};

/** Sends one row of the shop's customers by postback (the newest row of a key gives its attributes). */
export async function postPerson(h: Harness, person: Person): Promise<void> {
  await json(
    h.call('POST', '/postback/v3/event/shop/customers', {
      key: null,
      body: JSON.stringify(person),
      headers: { 'content-type': 'application/json', 'x-svc-write-key': h.admin.writeOnlyKey },
    }),
  );
}

/** Runs the journey at `at` on the harness clock (`POST …/run`) and answers the run summary. */
export async function runJourneyAt<T>(h: Harness, journeyId: string, at: number): Promise<T> {
  h.clock.set(at);
  return (await json<{ data: T }>(h.call('POST', `/entities/journeys/${journeyId}/run`))).data;
}

/** Imports the people and builds a parent segment over them; answers its id. */
export async function seedParentSegment(h: Harness, people: Person[]): Promise<string> {
  await json(h.call('POST', '/v3/database/create/shop'));
  for (const person of people) await postPerson(h, person);
  const parent = await json<{ id: string; buildJobId: string | null }>(
    h.call('POST', '/audiences', { json: shopParentSegment }),
  );
  if (!parent.buildJobId) throw new Error('Creating the parent segment queued no build.');
  const status = await h.app.services.jobs.whenSettled(Number(parent.buildJobId));
  if (status !== 'success') {
    // Every test of the scenario needs the profiles: say why the build did not make them.
    const job = await (await h.call('GET', `/v3/job/show/${parent.buildJobId}`)).text();
    throw new Error(`The parent segment build ended ${status}: ${job.slice(0, 1000)}`);
  }
  return parent.id;
}

const since = (column: string) => ({
  type: 'And',
  conditions: [
    { type: 'Value', leftValue: { name: column }, operator: { type: 'TimeWithinPast', value: 20000, unit: 'day' } },
  ],
});

/** The scenario's segments; answers their ids by role. */
export async function seedSegments(h: Harness, parentId: string) {
  const make = async (name: string, rule: unknown) =>
    (await json<{ id: string }>(h.call('POST', `/audiences/${parentId}/segments`, { json: { name, rule } }))).id;
  return {
    entry: await make('Everyone', {
      type: 'And',
      conditions: [{ type: 'Value', leftValue: { name: 'vip' }, operator: { type: 'GreaterEqual', rightValue: 0 } }],
    }),
    vip: await make('VIP', {
      type: 'And',
      conditions: [{ type: 'Value', leftValue: { name: 'vip' }, operator: { type: 'Equal', rightValue: 1 } }],
    }),
    engaged: await make('Engaged', since('engaged_at')),
    buyer: await make('Buyers', since('bought_at')),
    unsubscribed: await make('Unsubscribed', since('unsub_at')),
  };
}

export type Segments = Awaited<ReturnType<typeof seedSegments>>;

/** The two-stage journey of the scenario, launched with a real activation; answers ids. */
export async function launchScenario(h: Harness, parentId: string, seg: Segments, allowReentry = false) {
  await json(h.call('POST', '/v3/result/create/shop_out', { form: { url: 'td://@/shop/delivered' } }));
  const stages = (activationId: string | null) => [
    {
      name: 'Onboard',
      entryCriteria: { name: 'Everyone', segmentId: seg.entry },
      milestone: { name: 'Engaged', segmentId: seg.engaged },
      exitCriterias: [{ name: 'Too long', exitAfter: 20, unit: 'days' }],
      rootStep: 'wait3',
      steps: {
        wait3: { type: 'WaitStep', name: 'Three days', waitStep: 3, waitStepUnit: 'day', next: 'vipCheck' },
        vipCheck: {
          type: 'DecisionPoint',
          name: 'VIP?',
          branches: [
            { id: 'br-vip', name: 'VIP', excludedPath: false, segmentId: seg.vip, next: 'offerTest' },
            { id: 'br-rest', name: 'Others', excludedPath: true, segmentId: null, next: 'join' },
          ],
        },
        offerTest: {
          type: 'ABTest',
          name: 'Offer',
          customizedSplit: true,
          uniqueId: 'customer_id',
          variants: [
            { id: 'v-control', name: 'Control', percentage: 50, next: 'join' },
            { id: 'v-offer', name: 'Offer', percentage: 50, next: 'sendOffer' },
          ],
        },
        sendOffer: { type: 'Activation', name: 'Offer mail', journeyActivationStepId: activationId, next: 'join' },
        join: { type: 'Merge', next: 'end1' },
        end1: { type: 'End' },
      },
    },
    {
      name: 'Engaged',
      entryCriteria: { name: 'Engaged', segmentId: seg.engaged },
      exitCriterias: [{ name: 'Unsubscribed', segmentId: seg.unsubscribed }],
      rootStep: 'end2',
      steps: { end2: { type: 'End' } },
    },
  ];
  const attributes = {
    name: 'Welcome',
    audienceId: parentId,
    allowReentry,
    goal: { name: 'Bought', segmentId: seg.buyer },
    journeyStages: stages(null),
  };
  const created = await json<{ data: { id: string } }>(
    h.call('POST', '/entities/journeys', { json: { data: { type: 'journey', attributes } } }),
  );
  const journeyId = created.data.id;
  const activation = await json<{ data: { id: string } }>(
    h.call('POST', `/entities/journeys/${journeyId}/syndications`, {
      json: {
        type: 'journeyActivationStep',
        attributes: {
          syndication_params: {
            name: 'Offer mail',
            scheduleType: 'daily',
            scheduleOption: '06:00',
            timezone: 'UTC',
            connectionId: 'shop_out',
            allColumns: true,
          },
        },
      },
    }),
  );
  const activationId = activation.data.id;
  const launched = await json<{ data: { attributes: { journeyStages: Array<{ id: string }> } } }>(
    h.call('PATCH', `/entities/journeys/${journeyId}`, {
      json: {
        data: {
          id: journeyId,
          type: 'journey',
          attributes: { ...attributes, state: 'launched', journeyStages: stages(activationId) },
        },
      },
    }),
  );
  const [stage1, stage2] = launched.data.attributes.journeyStages.map((s) => s.id);
  return { journeyId, activationId, stage1: stage1 as string, stage2: stage2 as string };
}

/** The ids of the journey `launchScenario` launched. */
export type LaunchedIds = Awaited<ReturnType<typeof launchScenario>>;

/** Unix seconds `day` days after the clock time `T` (negative: before). */
export const daySeconds = (T: number, day: number) => Math.floor((T + day * DAY_MS) / 1000);

/**
 * The scenario's journey launched over a parent segment of one profile: for tests that write a large journey's
 * states and events straight into the tables.
 */
export async function launchOverOneProfile(h: Harness): Promise<LaunchedIds> {
  const parentId = await seedParentSegment(h, [
    { customer_id: 'p1', vip: 0, engaged_at: 0, bought_at: 0, unsub_at: 0 },
  ]);
  return launchScenario(h, parentId, await seedSegments(h, parentId));
}

/**
 * After a test wrote a journey's states and events straight into their tables (a journey of a size a run would
 * take the test's time for): the position counts and day counts a run keeps with the states and events it writes.
 */
export async function countKept(h: Harness, ids: LaunchedIds): Promise<void> {
  const db = h.deps.storage.db;
  await recountPositions(db, h.admin.accountId, Number(ids.journeyId));
  await recountFigures(db, h.admin.accountId, Number(ids.journeyId));
}
