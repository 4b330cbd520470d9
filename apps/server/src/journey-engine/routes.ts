import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { restSecurity } from '../accounts';
import {
  activationIdParams,
  errorResponses,
  getActivationRow,
  getJourneyRow,
  journeyIdParam,
  journeyOfRow,
  jsonBody,
  jsonResponse,
  pendingVersionPlan,
  requireJourneyControl,
  testWebhookSettings,
} from '../journeys';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { input } from '../platform/params';
import { parseStored } from '../platform/storedJson';
import { listResults } from '../results';
import { cursorOf, cursorValue } from './cursor';
import { type CustomersQuery, cursorKey, listCustomers, MAX_PER_PAGE } from './customers';
import {
  deliverAfterRun,
  deliveriesOf,
  deliveryFile,
  isDeliveryId,
  MAX_DELIVERIES_PER_PAGE,
  notificationsOf,
  testDelivery,
} from './deliveries';
import { pausesOf } from './runner';
import {
  activationTestRequestSchema,
  activationTestSchema,
  customersQuery,
  customersSchema,
  deliveriesQuery,
  deliveriesSchema,
  estimateSchema,
  handoverSchema,
  notificationsSchema,
  runSummarySchema,
  simulationRequestSchema,
  simulationSchema,
  statisticsQuery,
  statisticsSchema,
} from './schemas';
import { estimateInWorker, runJourneyInWorker, simulateInWorker, statisticsInWorker } from './tasks';
import { HANDOVER_RULE, previewHandover } from './versions';

/** A notification's recipients as stored: the e-mail addresses it went to. */
const recipientList = z.array(z.string());

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)], tags: ['Journey engine'] };
  const journeyPath = '/entities/journeys/{journeyId}';
  return {
    run: createRoute({
      ...base,
      method: 'post',
      path: `${journeyPath}/run`,
      summary: 'Run the journey engine for this journey now, send the deliveries that are due, and answer when done',
      description:
        'Moves the parent segment’s profiles through the launched journey at the service clock’s now, as the schedule does every minute, then sends the activation deliveries that are due (data.deliveries says what went and what still waits for its schedule). Running twice at the same instant changes nothing. Needs Full Control on the journey’s folder.',
      request: { params: journeyIdParam },
      responses: {
        200: jsonResponse(runSummarySchema, 'What the run did'),
        ...errorResponses(401, 403, 404, 409),
      },
    }),
    statistics: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/statistics`,
      summary: 'Journey statistics over a window (default: the past 30 days including today)',
      description:
        'Counts are distinct profiles over the window, from the engine’s event log; `current` figures are as of now. Per stage: entered, currently in, milestone reached, left by each exit criterion, and where leavers went. Per step, per decision path and per A/B variant; for each A/B test, goal conversion per variant against the control with uplift and a two-sided p-value.',
      request: { params: journeyIdParam, query: statisticsQuery },
      responses: { 200: jsonResponse(statisticsSchema, 'The statistics'), ...errorResponses(400, 401, 404) },
    }),
    estimate: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/estimate`,
      summary: 'Estimate what the next run would do: profiles entering each stage, reaching the goal, exiting',
      description:
        'Runs the engine without storing anything, over today’s segment memberships: for a draft as at launch (nobody in it yet), for a launched journey from where its profiles are. Per stage, how many match its entry criteria, enter it, start in a later stage instead, or are kept out; data.rule spells out the overlap rule.',
      request: { params: journeyIdParam },
      responses: { 200: jsonResponse(estimateSchema, 'The estimate'), ...errorResponses(401, 404, 409) },
    }),
    customers: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/customers`,
      summary: 'Profiles in the journey with their stage, step, times, branches and variants (Full Control only)',
      request: { params: journeyIdParam, query: customersQuery },
      responses: {
        200: jsonResponse(customersSchema, 'One page of profiles, in key order'),
        ...errorResponses(400, 401, 403, 404),
      },
    }),
    simulate: createRoute({
      ...base,
      method: 'post',
      path: `${journeyPath}/simulation`,
      summary: 'Dry run: the path a profile (or a sample) would take up to a future time, and why (Full Control)',
      description:
        'Works for drafts and launched journeys; nothing is stored. Send profileKey, or sample (1–20), and until (a date or time) or days (default 30).',
      request: {
        params: journeyIdParam,
        body: { ...jsonBody(simulationRequestSchema, 'Who and how far ahead; every field optional'), required: false },
      },
      responses: {
        200: jsonResponse(simulationSchema, 'Each profile’s simulated path'),
        ...errorResponses(400, 401, 403, 404, 409),
      },
    }),
    testActivation: createRoute({
      ...base,
      method: 'post',
      path: `${journeyPath}/syndications/test`,
      summary: 'Send one test profile to a webhook and answer how it responded (Full Control)',
      description:
        'Give url (a webhook not saved yet) or connectionId (a saved result connection), and the webhook settings: connectorConfig as typed (method, headers, bodyTemplate; checked as at save), activationId of a saved activation (its settings, and its stored header values for headers given without one), or neither (a plain POST). The body is one profile of the parent segment with "test": true (filled into the body template when there is one); the answer has the status code and the start of the response body; nothing is recorded or queued. Only https:// webhooks are tested (http:// and private addresses where the operator allows them); tables and CSV files get their first real delivery.',
      request: { params: journeyIdParam, body: jsonBody(activationTestRequestSchema, '{url} or {connectionId}') },
      responses: {
        200: jsonResponse(
          activationTestSchema,
          'How the webhook answered (status error with the reason when it failed)',
        ),
        ...errorResponses(400, 401, 403, 404),
      },
    }),
    handover: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/handover`,
      summary: 'What launching this draft version would do to the profiles of the journey it replaces',
      request: { params: journeyIdParam },
      responses: { 200: jsonResponse(handoverSchema, 'The counts, or data null'), ...errorResponses(401, 404) },
    }),
    deliveries: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/syndications/{activationId}/deliveries`,
      summary: 'Deliveries of an activation, newest first: time, profile count, status, target and error',
      request: { params: activationIdParams, query: deliveriesQuery },
      responses: {
        200: jsonResponse(deliveriesSchema, 'A page of deliveries; meta.next is the cursor of older ones'),
        ...errorResponses(400, 401, 404),
      },
    }),
    deliveryFile: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/syndications/{activationId}/deliveries/{deliveryId}/file`,
      summary: 'Download the CSV file of a delivery to a csv:// connection (Full Control)',
      request: { params: activationIdParams.extend({ deliveryId: z.string() }) },
      responses: {
        200: { description: 'The CSV file', content: { 'text/csv': { schema: z.string() } } },
        ...errorResponses(401, 403, 404),
      },
    }),
    notifications: createRoute({
      ...base,
      method: 'get',
      path: `${journeyPath}/notifications`,
      summary: 'The notifications outbox of the journey’s activations (notifyOn / emailRecipients), newest first',
      request: { params: journeyIdParam },
      responses: { 200: jsonResponse(notificationsSchema, 'Up to 100 messages'), ...errorResponses(401, 404) },
    }),
  };
}

function positiveInt(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw badRequest(`"${name}" is "${raw}"; give a whole number from 1 to ${max}.`);
  }
  return n;
}

const simulationParams = z.object({
  profileKey: z.coerce.string().optional(),
  sample: z.coerce.number().int().min(1).max(20).optional(),
  until: z.coerce.string().optional(),
  days: z.coerce.number().int().min(1).max(730).optional(),
});

/** `/entities/journeys/:journeyId/{run,statistics,customers,simulation}`: the journey engine's API. */
export function journeyEngineRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.run, async (c) => {
      const principal = principalOf(c);
      const row = await getJourneyRow(deps.storage.db, principal.accountId, c.req.valid('param').journeyId);
      await requireJourneyControl(deps, principal, row, 'run journeys in this folder');
      if (row.state !== 'launched') throw conflict('This journey is a draft; launch it before running it.');
      if (row.paused === 1) throw conflict('This journey is paused, so nothing moves; resume it, then run it.');
      const summary = await runJourneyInWorker(deps, row, 'request');
      const deliveries = await deliverAfterRun(deps, row, Date.parse(summary.at));
      return c.json({ data: { ...summary, deliveries } }, 200);
    })
    .openapi(r.statistics, async (c) => {
      const row = await getJourneyRow(deps.storage.db, principalOf(c).accountId, c.req.valid('param').journeyId);
      const q = c.req.valid('query');
      return c.json(await statisticsInWorker(deps, row, q.from, q.to), 200);
    })
    .openapi(r.estimate, async (c) => {
      const row = await getJourneyRow(deps.storage.db, principalOf(c).accountId, c.req.valid('param').journeyId);
      return c.json(await estimateInWorker(deps, row), 200);
    })
    .openapi(r.customers, async (c) => {
      const principal = principalOf(c);
      const row = await getJourneyRow(deps.storage.db, principal.accountId, c.req.valid('param').journeyId);
      await requireJourneyControl(deps, principal, row, 'list the profiles of journeys in this folder');
      const q = c.req.valid('query');
      const query: CustomersQuery = {
        stage: q.stage || undefined,
        step: q.step || undefined,
        status: q.status ?? 'active',
        page: positiveInt(q.page, 'page', 1, 1_000_000),
        perPage: positiveInt(q.per_page, 'per_page', 50, MAX_PER_PAGE),
        after: q.after === undefined ? undefined : cursorKey(q.after, q.page),
      };
      const db = deps.storage.db;
      const page = await listCustomers(db, row.account_id, row.id, journeyOfRow(row), await pausesOf(db, row), query);
      return c.json(page, 200);
    })
    .openapi(r.simulate, async (c) => {
      const principal = principalOf(c);
      const row = await getJourneyRow(deps.storage.db, principal.accountId, c.req.param('journeyId'));
      await requireJourneyControl(deps, principal, row, 'simulate journeys in this folder');
      const body = await input(c, simulationParams);
      return c.json(await simulateInWorker(deps, row, body), 200);
    })
    .openapi(r.testActivation, async (c) => {
      const principal = principalOf(c);
      const row = await getJourneyRow(deps.storage.db, principal.accountId, c.req.param('journeyId'));
      await requireJourneyControl(deps, principal, row, 'test the activations of journeys in this folder');
      const body = await input(c, activationTestRequestSchema);
      let url = body.url?.trim() ?? '';
      if (!url && body.connectionId) {
        const connection = (await listResults(deps.storage.db, row.account_id)).find(
          (r) => r.name === body.connectionId,
        );
        if (!connection) throw badRequest(`There is no result connection "${body.connectionId}"; choose another.`);
        url = connection.url;
      }
      if (!url) throw badRequest('Give the webhook "url" or a "connectionId" to send the test to.');
      if (!/^https?:\/\//i.test(url)) {
        throw badRequest(
          'Test sends go to webhooks (https://…); a table (td://@/database/table) or CSV (csv://name) target gets its first real delivery instead.',
        );
      }
      const webhook = await testWebhookSettings(deps, row, body.connectorConfig, body.activationId);
      const outcome = await testDelivery(deps, row, url, webhook);
      return c.json(
        {
          data: {
            status: outcome.error === null ? ('success' as const) : ('error' as const),
            target: outcome.target,
            responseCode: outcome.responseCode ?? null,
            responseExcerpt: outcome.responseExcerpt ?? null,
            error: outcome.error,
          },
        },
        200,
      );
    })
    .openapi(r.handover, async (c) => {
      const row = await getJourneyRow(deps.storage.db, principalOf(c).accountId, c.req.valid('param').journeyId);
      const pending = await pendingVersionPlan(deps, row);
      if (!pending) return c.json({ data: null }, 200);
      const counts = await previewHandover(deps, pending.source, pending.plan);
      const replaces = { id: String(pending.source.id), name: pending.source.name };
      return c.json({ data: { replaces, ...counts, rule: HANDOVER_RULE } }, 200);
    })
    .openapi(r.deliveries, async (c) => {
      const { journeyId, activationId } = c.req.valid('param');
      const db = deps.storage.db;
      const row = await getJourneyRow(db, principalOf(c).accountId, journeyId);
      const activation = await getActivationRow(db, row.account_id, row.id, activationId);
      const q = c.req.valid('query');
      const page = await deliveriesOf(db, row.account_id, row.id, String(activation.id), {
        beforeId: q.before === undefined ? undefined : Number(cursorValue('before', q.before, isDeliveryId)),
        status: q.status,
        limit: positiveInt(q.per_page, 'per_page', 100, MAX_DELIVERIES_PER_PAGE),
      });
      const last = page.rows.at(-1);
      const data = page.rows.map((d) => ({
        id: String(d.id),
        at: new Date(d.at).toISOString(),
        status: d.status,
        profiles: d.profiles,
        target: d.target,
        error: d.error,
        responseCode: d.response_code,
      }));
      return c.json({ data, meta: { next: page.more && last ? cursorOf(String(last.id)) : null } }, 200);
    })
    .openapi(r.deliveryFile, async (c) => {
      const principal = principalOf(c);
      const { journeyId, activationId, deliveryId } = c.req.valid('param');
      const db = deps.storage.db;
      const row = await getJourneyRow(db, principal.accountId, journeyId);
      await requireJourneyControl(deps, principal, row, 'download the deliveries of journeys in this folder');
      await getActivationRow(db, row.account_id, row.id, activationId);
      const file = /^\d{1,15}$/.test(deliveryId)
        ? await deliveryFile(db, row.account_id, row.id, Number(deliveryId))
        : null;
      if (!file) throw notFound('delivery file');
      return c.body(file.body, 200, {
        'content-type': file.content_type,
        'content-disposition': `attachment; filename="journey-${row.id}-delivery-${deliveryId}.csv"`,
      });
    })
    .openapi(r.notifications, async (c) => {
      const row = await getJourneyRow(deps.storage.db, principalOf(c).accountId, c.req.valid('param').journeyId);
      const data = (await notificationsOf(deps.storage.db, row.account_id, row.id)).map((n) => ({
        id: String(n.id),
        activationId: n.activation_id,
        deliveryId: n.delivery_id === null ? null : String(n.delivery_id),
        createdAt: new Date(n.created_at).toISOString(),
        recipients: parseStored(recipientList, n.recipients, 'journey_notifications.recipients'),
        subject: n.subject,
        body: n.body,
      }));
      return c.json({ data }, 200);
    });
}
