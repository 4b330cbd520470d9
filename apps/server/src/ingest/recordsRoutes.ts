import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody, ingestLimits, recordsRequest, recordsResponse } from '@svc/contracts';
import type { Context } from 'hono';
import { checkWritableTable, databaseForWrite, prepareRecord } from '../data';
import { keyFromAuthorization } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../platform/errors';
import { checkRecord, ingestBodyLimit, ingestPrincipal, readBody } from './body';
import { ingestCors } from './cors';
import { commitRecords } from './groupCommit';
import { placeholders } from './placeholders';
import { mountSdkRoutes } from './sdkRoutes';

/**
 * The records (Data Ingestion) API that browser SDKs post to (wire-compat §2.9): `POST /:db/:table` on
 * the ingest address with `{"events":[…]}`. It matches only when both segments follow the name rule and
 * the first is not one of the service's own top-level paths, so it never swallows other routes.
 */
const RESERVED_FIRST = new Set(['entities', 'audiences', 'postback']);
const INGEST_METHODS = new Set(['POST', 'OPTIONS']);
const PATH = '/:db{[a-z0-9_]{3,255}}/:table{[a-z0-9_]{3,255}}';
const CONTENT_TYPES = [
  'application/json',
  'application/vnd.treasuredata.v1+json',
  'application/vnd.treasuredata.v1.js+json',
];

const doc = createRoute({
  method: 'post',
  path: '/{db}/{table}',
  tags: ['Ingestion'],
  summary: 'Store a batch of records (browser SDK records API)',
  description:
    'Authenticated by `Authorization: SVC1 <write-only or master key>`. Body `{"events":[record, …]}` with 1 to 500 ' +
    'records, each at most 1 MiB, the whole body at most 5 MiB; Content-Type `application/json` or ' +
    '`application/vnd.treasuredata.v1+json`. The database must exist; the table is created on first write. `time` ' +
    '(integer Unix seconds) defaults to the receive time. Answers once every record is durable. CORS preflights and ' +
    'responses echo the request Origin with credentials. Database names `entities`, `audiences` and `postback` are ' +
    'not reachable here on a shared address.',
  security: [{ SVC1: [] }],
  request: {
    params: z.object({ db: z.string(), table: z.string() }),
    body: { content: { 'application/json': { schema: recordsRequest } } },
  },
  responses: {
    200: { description: 'Every record is stored', content: { 'application/json': { schema: recordsResponse } } },
    ...Object.fromEntries(
      [400, 401, 404, 413, 415].map((code) => [
        code,
        { description: 'Refused', content: { 'application/json': { schema: errorBody } } },
      ]),
    ),
  },
});

/** The `events` array of a body, checked by hand: zod would cost more than the whole write at this rate. */
function readEvents(raw: string): unknown[] {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  const events = (body as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw badRequest('Send {"events": [record, …]}: "events" must be an array of objects.');
  if (events.length === 0) throw badRequest('Send at least one event.');
  if (events.length > ingestLimits.eventsPerBatch) {
    throw badRequest(`Send at most ${ingestLimits.eventsPerBatch} events per request, not ${events.length}.`);
  }
  return events;
}

async function ingest(deps: AppDeps, c: Context<AppEnv>, dbName: string, tableName: string) {
  const receivedAt = Math.floor(deps.clock.now().getTime() / 1000);
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!CONTENT_TYPES.includes(type)) {
    throw unsupportedMediaType(`Send the events as JSON: Content-Type ${CONTENT_TYPES.slice(0, 2).join(' or ')}.`);
  }
  const principal = await ingestPrincipal(deps, c, keyFromAuthorization(c.req.header('authorization')));
  const database = await databaseForWrite(deps, principal.accountId, dbName);
  await checkWritableTable(deps.storage.db, database, tableName);
  const raw = await readBody(c, ingestLimits.batchBytes);
  const events = readEvents(raw);
  // Only a body larger than the record limit can hold a record larger than it: measure only then.
  const measure = raw.length > ingestLimits.recordBytes;
  const filler = placeholders(deps, c);
  const records = events.map((event, i) => {
    const record = filler.fill(checkRecord(event, `Event ${i}`));
    if (measure && JSON.stringify(record).length > ingestLimits.recordBytes) {
      throw payloadTooLarge(`Event ${i} is larger than the limit of ${ingestLimits.recordBytes} bytes.`);
    }
    try {
      return prepareRecord(record, receivedAt);
    } catch (err) {
      if (err instanceof Error) err.message = `Event ${i}: ${err.message}`;
      throw err;
    }
  });
  await commitRecords(deps, database, tableName, records);
  filler.finish();
  return c.json({ database: database.name, table: tableName, imported: records.length }, 200);
}

/**
 * Mounts the records API on `app`. Call it after every other route: it answers only POST and OPTIONS
 * on two-segment paths that fit the name rule, and passes anything else on.
 */
export function mountRecordsApi(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  // td-js-sdk's other calls (global id, server-side cookie, not-offered lookups) come first.
  mountSdkRoutes(app, deps);
  app.openAPIRegistry.registerPath(doc);
  const cors = ingestCors();
  const limit = ingestBodyLimit(ingestLimits.batchBytes);
  // Middleware first, so errors thrown by the handler still leave with the CORS headers.
  app.use(PATH, (c, next) =>
    RESERVED_FIRST.has(c.req.param('db')) || !INGEST_METHODS.has(c.req.method) ? next() : cors(c, next),
  );
  app.use(PATH, (c, next) =>
    RESERVED_FIRST.has(c.req.param('db')) || c.req.method !== 'POST' ? next() : limit(c, next),
  );
  app.post(PATH, async (c, next) => {
    const db = c.req.param('db');
    if (RESERVED_FIRST.has(db)) return next();
    return ingest(deps, c, db, c.req.param('table'));
  });
}
