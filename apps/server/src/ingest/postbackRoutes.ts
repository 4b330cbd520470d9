import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody, ingestLimits, postbackResponse } from '@svc/contracts';
import { checkWritableTable, databaseForWrite, prepareRecord } from '../data';
import { keyFromAuthorization } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, unsupportedMediaType } from '../platform/errors';
import { checkRecord, ingestBodyLimit, ingestPrincipal, readBody, readJson } from './body';
import { ingestCors } from './cors';
import { commitRecords } from './groupCommit';
import { placeholders } from './placeholders';

/** Path names of postback: letters, digits and underscore (spec). */
const POSTBACK_NAME = /^[A-Za-z0-9_]+$/;
const pathName = z.string().openapi({ description: 'Letters, digits and underscore; read in lowercase' });

const postback = createRoute({
  method: 'post',
  path: '/postback/v3/event/{db}/{table}',
  tags: ['Ingestion'],
  summary: 'Store one record (postback)',
  description:
    'Authenticated by `X-SVC-Write-Key: <write-only or master key>` (or `Authorization: SVC1 <key>`). The body is one ' +
    'JSON object (form fields are read as strings), at most 1 MiB. Path names may use uppercase letters and are read ' +
    'in lowercase, as database and table names are lowercase. The database must exist; the table is created on first ' +
    'write (its name must then match `^[a-z0-9_]{3,255}$`). `time` (integer Unix seconds) defaults to the receive ' +
    'time. Answers `{}` once the record is durable. CORS: the request Origin is echoed with credentials.',
  security: [{ SVC1: [] }],
  request: { params: z.object({ db: pathName, table: pathName }) },
  responses: {
    200: { description: 'The record is stored', content: { 'application/json': { schema: postbackResponse } } },
    ...Object.fromEntries(
      [400, 401, 404, 413, 415].map((code) => [
        code,
        { description: 'Refused', content: { 'application/json': { schema: errorBody } } },
      ]),
    ),
  },
});

function readName(raw: string, what: 'database' | 'table'): string {
  if (!POSTBACK_NAME.test(raw)) {
    throw badRequest(`The ${what} name in the path may contain only letters, digits and underscores.`);
  }
  return raw.toLowerCase();
}

async function readRecord(c: Parameters<typeof readJson>[0]): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(await readBody(c, ingestLimits.recordBytes)));
  }
  if (type.startsWith('multipart/')) {
    throw unsupportedMediaType('Send the record as a JSON object (Content-Type: application/json) or as form fields.');
  }
  return checkRecord(await readJson(c, ingestLimits.recordBytes), 'The body');
}

/** `POST /postback/v3/event/:db/:table` (spec "Postback"), with group commit and CORS. */
export function postbackRoutes(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.use('/postback/v3/event/*', ingestCors());
  app.use('/postback/v3/event/*', ingestBodyLimit(ingestLimits.recordBytes));
  return app.openapi(postback, async (c) => {
    const receivedAt = Math.floor(deps.clock.now().getTime() / 1000);
    const params = c.req.valid('param');
    const dbName = readName(params.db, 'database');
    const tableName = readName(params.table, 'table');
    const writeKey = c.req.header('x-svc-write-key');
    const authorization = c.req.header('authorization');
    if (writeKey !== undefined && authorization !== undefined) {
      throw badRequest('Send one credential: either the X-SVC-Write-Key header or Authorization, not both.');
    }
    const key = writeKey ?? keyFromAuthorization(authorization);
    const principal = await ingestPrincipal(deps, c, key);
    const database = await databaseForWrite(deps, principal.accountId, dbName);
    await checkWritableTable(deps.storage.db, database, tableName);
    const filler = placeholders(deps, c);
    const record = prepareRecord(filler.fill(await readRecord(c)), receivedAt);
    await commitRecords(deps, database, tableName, [record]);
    filler.finish();
    return c.json({}, 200);
  });
}
