import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { type DemoRefs, realisticJourneyAttributes } from '../../packages/journey/src/fixtures/demo-journeys';
import { signIn } from './helpers';

/**
 * Set-up the journey browser tests share, through the real API only: an API key made in the console,
 * a small customer table imported with the records API, a parent segment built on it, segments, and a
 * result connection for activations.
 */

const CONSOLE = { 'x-svc-console': '1' };

export interface JourneyWorld {
  key: string;
  audienceId: string;
  rootFolderId: string;
  segments: Record<'everyone' | 'japan' | 'usa' | 'france' | 'buyers' | 'repeat' | 'unsubscribed', string>;
  connection: string;
}

async function ok<T = Record<string, unknown>>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const text = await response.text();
  expect(response.status(), text).toBe(200);
  return JSON.parse(text) as T;
}

/** Builds the world on a signed-in page (the page's cookies carry the session). */
export async function buildJourneyWorld(page: Page, tag: string): Promise<JourneyWorld> {
  const request = page.request;
  const created = await ok<{ key: string }>(
    await request.post('/console-api/api-keys', { headers: CONSOLE, data: { type: 'master', name: 'Journey setup' } }),
  );
  const auth = { authorization: `SVC1 ${created.key}` };
  const database = `journeys_${tag}`;
  const db = await request.post(`/v3/database/create/${database}`, { headers: auth });
  expect([200, 409]).toContain(db.status());
  const now = Math.floor(Date.now() / 1000);
  const countries = ['JP', 'US', 'FR', 'JP', 'US', 'JP', 'DE', 'FR', 'JP', 'US', 'JP', 'US'];
  const events = countries.map((country, i) => ({
    customer_id: `c${100 + i}`,
    email: `customer${i}@example.com`,
    country,
    orders: i % 4,
    unsubscribed: i === 6 ? 1 : 0,
    time: now - 3600,
  }));
  await ok(await request.post(`/${database}/customers`, { headers: auth, data: { events } }));

  const record = await ok<{ id: string; rootFolderId: string; buildStatus: string | null }>(
    await request.post('/audiences', {
      headers: CONSOLE,
      data: {
        name: `Shop customers ${tag}`,
        description: 'Customers of the web shop',
        master: { parentDatabaseName: database, parentTableName: 'customers', parentKey: 'customer_id' },
        attributes: [
          { name: 'email', parentColumn: 'email' },
          { name: 'country', parentColumn: 'country' },
          { name: 'orders', parentColumn: 'orders' },
          { name: 'unsubscribed', parentColumn: 'unsubscribed' },
        ],
        behaviors: [],
      },
    }),
  );
  await expect
    .poll(
      async () => (await ok<{ buildStatus: string | null }>(await request.get(`/audiences/${record.id}`))).buildStatus,
      {
        message: 'the parent segment build ends',
      },
    )
    .toBe('success');

  const value = (column: string, operator: Record<string, unknown>) => ({
    type: 'And',
    conditions: [{ type: 'Value', leftValue: { name: column }, operator }],
  });
  const segment = async (name: string, rule: Record<string, unknown>) =>
    (
      await ok<{ id: string }>(
        await request.post(`/audiences/${record.id}/segments`, { headers: CONSOLE, data: { name, rule } }),
      )
    ).id;
  const segments = {
    everyone: await segment('Everyone', value('email', { type: 'IsNull', not: true })),
    japan: await segment('Customers in Japan', value('country', { type: 'Equal', rightValue: 'JP' })),
    usa: await segment('Customers in the US', value('country', { type: 'Equal', rightValue: 'US' })),
    france: await segment('Customers in France', value('country', { type: 'Equal', rightValue: 'FR' })),
    buyers: await segment('Made a purchase', value('orders', { type: 'GreaterEqual', rightValue: 1 })),
    repeat: await segment('Bought twice or more', value('orders', { type: 'GreaterEqual', rightValue: 2 })),
    unsubscribed: await segment('Unsubscribed', value('unsubscribed', { type: 'Equal', rightValue: 1 })),
  };
  const connection = `crm_${tag}`;
  const result = await request.post(`/v3/result/create/${connection}`, {
    headers: auth,
    data: { url: 'https://crm.example.com/import' },
  });
  expect([200, 409]).toContain(result.status());
  // Made behind the console's back: the page it was on (the overview after sign-in) may hold the parent
  // segments from before, fresh for 30 s. A reload starts the console's cache afresh.
  await page.reload();
  return { key: created.key, audienceId: record.id, rootFolderId: record.rootFolderId, segments, connection };
}

/** Creates activations (journeyActivationSteps) of a journey through the API; returns their ids. */
export async function createActivations(page: Page, world: JourneyWorld, journeyId: string, names: string[]) {
  const ids: string[] = [];
  for (const name of names) {
    const body = await ok<{ data: { id: string } }>(
      await page.request.post(`/entities/journeys/${journeyId}/syndications`, {
        headers: CONSOLE,
        data: {
          type: 'journeyActivationStep',
          attributes: {
            syndication_params: {
              name,
              connectionId: world.connection,
              scheduleType: 'daily',
              scheduleOption: '09:00',
              timezone: 'UTC',
              columns: ['email', 'country'],
              allColumns: false,
            },
          },
        },
      }),
    );
    ids.push(body.data.id);
  }
  return ids;
}

export async function createJourneyByApi(page: Page, world: JourneyWorld, attributes: Record<string, unknown>) {
  const body = await ok<{ data: { id: string } }>(
    await page.request.post('/entities/journeys', {
      headers: CONSOLE,
      data: { type: 'journey', attributes: { ...attributes, audienceId: world.audienceId, state: 'draft' } },
    }),
  );
  return body.data.id;
}

export async function patchJourneyByApi(page: Page, journeyId: string, attributes: Record<string, unknown>) {
  await ok(
    await page.request.patch(`/entities/journeys/${journeyId}`, {
      headers: CONSOLE,
      data: { id: journeyId, type: 'journey', attributes },
    }),
  );
}

/** Every edge of the canvas as source, exit handle and target (node ids), sorted. */
export async function edgeTriples(page: Page) {
  const edges = await page.locator('.react-flow__edge').evaluateAll((elements) =>
    elements.map((e) => {
      const id = e.getAttribute('data-id') ?? '';
      const [source = '', handle = ''] = id.split('->');
      const target = /to (.*)$/.exec(e.getAttribute('aria-label') ?? '')?.[1] ?? '';
      return { source, handle, target };
    }),
  );
  return edges.sort((a, b) => `${a.source}${a.handle}`.localeCompare(`${b.source}${b.handle}`));
}

/** The demo journeys' references to this world's segments (no activations yet; they come after the journey). */
export function demoRefsOf(world: JourneyWorld): DemoRefs {
  const s = world.segments;
  return {
    segments: {
      signedUp: s.everyone,
      firstPurchase: s.buyers,
      secondPurchase: s.repeat,
      unsubscribed: s.unsubscribed,
      storeBuyers: s.japan,
      appUsers: s.usa,
      loyal: s.repeat,
    },
    activations: { welcome: null, coupon: null, push: null, reminder: null },
    uniqueIdColumn: 'customer_id',
  };
}

/** The "Repeat buyers" stage: everyone who bought twice, thanked at once (one End step with this id). */
export function repeatBuyersStage(world: JourneyWorld, endStepId: string) {
  return {
    name: 'Repeat buyers',
    entryCriteria: { name: 'Bought twice', segmentId: world.segments.repeat, description: null },
    milestone: null,
    exitCriterias: [],
    rootStep: endStepId,
    steps: { [endStepId]: { type: 'End', name: 'Thanked' } },
  };
}

/** A small journey that can launch as it is: stage 1 waits a few days and ends, stage 2 is `repeatBuyersStage`. */
export function launchableJourney(world: JourneyWorld, name: string, tag: string) {
  const id = (n: number) =>
    `0000f4${String(n).padStart(2, '0')}-${tag.slice(0, 4).padEnd(4, '0')}-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    name,
    allowReentry: false,
    goal: { name: 'Shops in France', segmentId: world.segments.france, description: null },
    journeyStages: [
      {
        name: 'Welcome',
        entryCriteria: { name: 'Everyone', segmentId: world.segments.everyone, description: null },
        milestone: { name: 'Bought twice', segmentId: world.segments.repeat, description: null },
        exitCriterias: [],
        rootStep: id(1),
        steps: {
          [id(1)]: { type: 'WaitStep', name: 'Settle in', waitStep: 3, waitStepUnit: 'day', next: id(2) },
          [id(2)]: { type: 'End', name: 'Welcomed' },
        },
      },
      repeatBuyersStage(world, id(3)),
    ],
  };
}

/** The realistic demo journey as a draft, opened in a window of the given size; resolves once its decision point shows. */
export async function openRealisticDraft(page: Page, tag: string, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await signIn(page);
  const world = await buildJourneyWorld(page, tag);
  const journeyId = await createJourneyByApi(page, world, realisticJourneyAttributes(demoRefsOf(world)));
  await page.goto(`/journeys/${journeyId}`);
  const decision = page.getByRole('group', { name: 'Decision point: Where are they active?', exact: true });
  await expect(decision).toBeVisible();
  return { journeyId, decision };
}

/** Opens the journey, selects its activation step `stepName`, and opens "Create activation" from the step. */
export async function openCreateActivation(page: Page, journeyId: string, stepName: string) {
  await page.goto(`/journeys/${journeyId}`);
  await page.getByRole('group', { name: `Activation: ${stepName}` }).click();
  const side = page.getByRole('complementary', { name: 'Selected item settings' });
  await side.getByRole('button', { name: 'Create activation' }).click();
  return { side, dialog: page.getByRole('dialog', { name: 'Create activation' }) };
}
