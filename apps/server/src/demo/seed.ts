import type { DemoItem } from '@svc/contracts';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppDeps } from '../platform/context';
import { ApiError } from '../platform/errors';
import { generateDemoData, type Row } from './generate';
import { recordDemoItem } from './registry';

/**
 * The living demo of the first start, built only through the service's public API (called in-process on the
 * real app with the account's master key), never by writing to storage: a sample shop database, a parent
 * segment with attributes and behaviours, three segments, a launched two-stage journey with a decision point,
 * an A/B test and table activations, run once, and a finished query. Every item is recorded as demo data.
 */

/** The app as the demo uses it: in-process requests, and a way to wait for a job. */
export interface DemoApp {
  request(path: string, init: RequestInit): Response | Promise<Response>;
  services: {
    jobs: { whenSettled(jobId: number): Promise<string> };
    /** One engine round: runs the launched journeys and sends the activation deliveries that are due. */
    journeyEngine: { tick(): Promise<unknown> };
  };
}

export interface DemoSummary {
  rows: number;
  parentSegmentId: string;
  segmentIds: string[];
  journeyId: string;
  activationIds: { welcome: string; coupon: string };
  queryJobId: string;
  items: DemoItem[];
}

export const DEMO_DATABASE = 'demo_shop';
const BATCH = 500;
const PARALLEL = 4;

type Json = Record<string, unknown>;

/** `SVC_DEMO=0` (or `false`, `no`, `off`) leaves the first start empty. */
export function demoEnabled(env: NodeJS.ProcessEnv): boolean {
  return !['0', 'false', 'no', 'off'].includes((env.SVC_DEMO ?? '').trim().toLowerCase());
}

/**
 * Creates the demo in `account`, calling the API with `authorization` (the first start: its master key; the
 * demo route: the caller's own header, so the caller's rights apply). A refused step stops the set-up with
 * that step's status and message.
 */
export async function seedDemo(
  app: DemoApp,
  deps: AppDeps,
  account: { accountId: number; authorization: string },
  options: { customers?: number } = {},
): Promise<DemoSummary> {
  const call = async <T = Json>(method: string, path: string, json?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: account.authorization };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, {
      method,
      headers,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await res.text();
    if (res.status !== 200) {
      const message = (JSON.parse(text) as { message?: string }).message ?? text;
      throw new ApiError(
        res.status as ContentfulStatusCode,
        'Demo set-up stopped',
        `The demo set-up stopped at ${method} ${path}: ${message}`,
      );
    }
    return JSON.parse(text) as T;
  };
  const items: DemoItem[] = [];
  const remember = async (item: DemoItem) => {
    items.push(item);
    await recordDemoItem(deps.storage.db, account.accountId, item, deps.clock.now().getTime());
  };
  const now = Math.floor(deps.clock.now().getTime() / 1000);

  // The sample database, through the records API in batches of 500, a few at a time.
  await call('POST', `/v3/database/create/${DEMO_DATABASE}`);
  await remember({ kind: 'database', ref: DEMO_DATABASE, label: `Database ${DEMO_DATABASE}` });
  const data = generateDemoData(now, options.customers);
  const batches: Array<[string, Row[]]> = [];
  for (const [table, rows] of Object.entries(data) as Array<[string, Row[]]>) {
    for (let i = 0; i < rows.length; i += BATCH) batches.push([table, rows.slice(i, i + BATCH)]);
  }
  for (let i = 0; i < batches.length; i += PARALLEL) {
    await Promise.all(
      batches.slice(i, i + PARALLEL).map(([table, events]) => call('POST', `/${DEMO_DATABASE}/${table}`, { events })),
    );
  }
  const rows = data.customers.length + data.orders.length + data.pageviews.length;

  // Where the journey's activations write: two tables of the same database.
  for (const [name, table] of [
    ['demo_welcome_list', 'welcome_list'],
    ['demo_coupon_list', 'coupon_list'],
  ] as const) {
    await call('POST', `/v3/result/create/${name}`, { url: `td://@/${DEMO_DATABASE}/${table}` });
    await remember({ kind: 'connection', ref: name, label: `Result connection ${name}` });
  }

  const parentName = 'Demo · Shop customers';
  const created = await call<{ id: string; buildJobId: string | number | null }>('POST', '/audiences', {
    name: parentName,
    description: `Demo data: the customers of ${DEMO_DATABASE}, with their orders and page views.`,
    master: { parentDatabaseName: DEMO_DATABASE, parentTableName: 'customers', parentKey: 'customer_id' },
    attributes: [
      { name: 'email', parentColumn: 'email', type: 'string' },
      { name: 'first_name', parentColumn: 'first_name', type: 'string' },
      { name: 'country', parentColumn: 'country', type: 'string' },
      { name: 'channel', parentColumn: 'channel', type: 'string' },
      { name: 'opted_out', parentColumn: 'opted_out', type: 'number' },
      { name: 'signup_time', parentColumn: 'signup_time', type: 'timestamp' },
    ],
    behaviors: [
      {
        name: 'orders',
        parentDatabaseName: DEMO_DATABASE,
        parentTableName: 'orders',
        foreignKey: 'customer_id',
        allColumns: false,
        schema: [
          { parentColumn: 'amount' },
          { parentColumn: 'category' },
          { parentColumn: 'channel' },
          { parentColumn: 'status' },
        ],
      },
      {
        name: 'page_views',
        parentDatabaseName: DEMO_DATABASE,
        parentTableName: 'pageviews',
        foreignKey: 'customer_id',
        allColumns: false,
        schema: [{ parentColumn: 'path' }, { parentColumn: 'device' }],
      },
    ],
  });
  await remember({ kind: 'parentSegment', ref: created.id, label: `Parent segment “${parentName}” and its segments` });
  const build = await app.services.jobs.whenSettled(Number(created.buildJobId));
  if (build !== 'success') throw new Error(`Demo set-up: the parent segment build ended as ${build}.`);

  const segment = async (name: string, rule: Json) =>
    (await call<{ id: string }>('POST', `/audiences/${created.id}/segments`, { name, rule })).id;
  const newCustomers = await segment('New customers (past 30 days)', {
    type: 'And',
    conditions: [
      {
        type: 'Value',
        leftValue: { name: 'signup_time' },
        operator: { type: 'TimeWithinPast', value: 30, unit: 'day' },
      },
    ],
  });
  const storeCustomers = await segment('Signed up in a store', {
    type: 'And',
    conditions: [{ type: 'Value', leftValue: { name: 'channel' }, operator: { type: 'Equal', rightValue: 'store' } }],
  });
  const repeatBuyers = await segment('Repeat buyers (2+ paid orders in 60 days)', {
    type: 'And',
    conditions: [
      {
        type: 'Behavior',
        behavior: 'orders',
        filter: {
          type: 'And',
          conditions: [
            { type: 'Value', leftValue: { name: 'status' }, operator: { type: 'Equal', rightValue: 'paid' } },
          ],
        },
        window: { type: 'TimeWithinPast', value: 60, unit: 'day' },
        count: { type: 'GreaterEqual', rightValue: 2 },
      },
    ],
  });

  const journeyName = 'Demo · Welcome to repeat purchase';
  const stages = (welcome: string | null, coupon: string | null) => [
    {
      name: 'Welcome',
      description: 'New customers get a welcome; store customers are offered a coupon in an A/B test.',
      entryCriteria: { name: 'New customers', segmentId: newCustomers },
      milestone: { name: 'Repeat purchase', segmentId: repeatBuyers },
      exitCriterias: [{ name: 'A month in the stage', exitAfter: 30, unit: 'days' }],
      rootStep: 'welcome',
      steps: {
        welcome: { type: 'Activation', name: 'Welcome list', journeyActivationStepId: welcome, next: 'where' },
        where: {
          type: 'DecisionPoint',
          name: 'Where did they sign up?',
          branches: [
            { id: 'store', name: 'In a store', excludedPath: false, segmentId: storeCustomers, next: 'offer' },
            { id: 'elsewhere', name: 'Everyone else', excludedPath: true, segmentId: null, next: 'join' },
          ],
        },
        offer: {
          type: 'ABTest',
          name: 'Coupon test',
          customizedSplit: true,
          uniqueId: 'customer_id',
          variants: [
            { id: 'control', name: 'Control', percentage: 50, next: 'join' },
            { id: 'coupon', name: 'Coupon', percentage: 50, next: 'sendCoupon' },
          ],
        },
        sendCoupon: { type: 'Activation', name: 'Coupon list', journeyActivationStepId: coupon, next: 'join' },
        join: { type: 'Merge', next: 'done' },
        done: { type: 'End' },
      },
    },
    {
      name: 'Repeat buyers',
      description: 'Customers with two paid orders or more.',
      entryCriteria: { name: 'Repeat buyers', segmentId: repeatBuyers },
      exitCriterias: null,
      rootStep: 'end',
      steps: { end: { type: 'End' } },
    },
  ];
  const attributes = {
    name: journeyName,
    description: 'Demo data: a launched two-stage journey, already run once.',
    audienceId: created.id,
    allowReentry: false,
  };
  const journey = await call<{ data: { id: string } }>('POST', '/entities/journeys', {
    data: { type: 'journey', attributes: { ...attributes, journeyStages: stages(null, null) } },
  });
  const journeyId = journey.data.id;
  await remember({ kind: 'journey', ref: journeyId, label: `Journey “${journeyName}”` });
  const activation = async (name: string, connectionId: string) =>
    (
      await call<{ data: { id: string } }>('POST', `/entities/journeys/${journeyId}/syndications`, {
        type: 'journeyActivationStep',
        attributes: {
          syndication_params: {
            name,
            connectionId,
            scheduleType: 'none',
            timezone: 'UTC',
            columns: ['customer_id', 'email', 'first_name', 'country'],
            allColumns: false,
          },
        },
      })
    ).data.id;
  const welcome = await activation('Welcome list', 'demo_welcome_list');
  const coupon = await activation('Coupon list', 'demo_coupon_list');
  await call('PATCH', `/entities/journeys/${journeyId}`, {
    data: {
      id: journeyId,
      type: 'journey',
      attributes: { ...attributes, state: 'launched', journeyStages: stages(welcome, coupon) },
    },
  });
  // What the schedule does every minute, now: profiles enter and move, and the activations deliver.
  await app.services.journeyEngine.tick();

  const query = await call<{ job_id: string }>('POST', `/v3/job/issue/presto/${DEMO_DATABASE}`, {
    query:
      "SELECT category, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders WHERE status = 'paid' GROUP BY category ORDER BY revenue DESC",
  });
  await remember({ kind: 'queryJob', ref: query.job_id, label: `Query job ${query.job_id}: paid revenue by category` });
  await app.services.jobs.whenSettled(Number(query.job_id));

  return {
    rows,
    parentSegmentId: created.id,
    segmentIds: [newCustomers, storeCustomers, repeatBuyers],
    journeyId,
    activationIds: { welcome, coupon },
    queryJobId: query.job_id,
    items,
  };
}
