import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { dataName, tableImported } from '@svc/contracts';
import type { Context } from 'hono';
import { dataTaskOptions, requireDatabase, requireTable } from '../data';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, payloadTooLarge } from '../platform/errors';
import { errorResponsesFrom, jsonResponse } from '../platform/openapi';
import { work } from '../platform/work';
import { type ImportArgs, type ImportOutcome, importLimits } from './tableImport';

/**
 * `PUT /v3/table/import/:db/:table/:format` and `PUT /v3/table/import_with_id/:db/:table/:unique_id/:format`
 * (td-client-ruby/python/node `import`, fluent-plugin-td, `td table:import`). Master and write-only keys:
 * importing is what write-only keys are for. The database and table must exist (404 otherwise): the
 * clients' auto-create (`td table:import --auto-create-table`, fluent-plugin-td's `auto_create_table`)
 * creates them with the table routes, and retries the import after a 404. `createApp` mounts these before
 * the ordinary body limit; their own limits apply as the bytes arrive.
 */

const FORMAT = 'msgpack.gz';
const UNIQUE_ID = /^[\x21-\x7e]{1,255}$/;

const errors = errorResponsesFrom({
  400: 'A format other than msgpack.gz, a malformed body or unique id, or a record that breaks a rule (nothing is imported)',
  401: 'No valid API key',
  404: 'No such database or table in the caller’s account',
  413: 'The body is larger than the limit, compressed or decompressed',
});
const db = dataName.meta({ description: 'Database name', example: 'web_events' });
const table = dataName.meta({ description: 'Table name', example: 'pageviews' });
const format = z.string().openapi({ description: 'msgpack.gz, the only format accepted', example: FORMAT });
const uniqueId = z.string().openapi({
  description: 'An id of the upload (1 to 255 printable characters): the same id is imported once',
  example: '5f2b6e0c9a1d4e3f8b7a6c5d4e3f2a1b',
});

function importRoute(deps: AppDeps, withId: boolean) {
  return createRoute({
    method: 'put',
    path: withId
      ? '/v3/table/import_with_id/{db}/{table}/{unique_id}/{format}'
      : '/v3/table/import/{db}/{table}/{format}',
    tags: ['Tables'],
    security: [{ SVC1: [] }],
    middleware: [apiKeyAuth(deps, { allowWriteOnly: true })],
    summary: withId ? 'Import records once per unique id' : 'Import records',
    description:
      'The body is the gzip of concatenated msgpack maps, one per record (at most 32 MiB, 64 MiB decompressed). ' +
      'Records follow the table rules: keys become columns (`v` is stored as `_v`), `time` is an integer of Unix ' +
      'seconds (the receive time when absent). Every record lands, in one transaction, or none does, and the ' +
      'answer comes once they are durable.' +
      (withId ? ' A unique id already imported into the table imports nothing and answers `duplicate: true`.' : ''),
    request: {
      params: withId ? z.object({ db, table, unique_id: uniqueId, format }) : z.object({ db, table, format }),
      body: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    },
    responses: { 200: jsonResponse(tableImported, 'Imported'), ...errors(400, 401, 404, 413) },
  });
}

/** The body, refused with 413 as soon as it passes the limit. */
async function readBody(c: Context<AppEnv>, max: number): Promise<Uint8Array> {
  const tooLarge = () =>
    payloadTooLarge(`The body is larger than the limit of ${max} bytes: split the records into several imports.`);
  if (Number(c.req.header('content-length')) > max) throw tooLarge();
  const stream = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (stream) {
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > max) throw tooLarge();
      chunks.push(chunk);
    }
  }
  if (size === 0) throw badRequest(`The body is empty: send the records as ${FORMAT}.`);
  return Buffer.concat(chunks, size);
}

export function tableImportRoutes(deps: AppDeps) {
  const handle = async (c: Context<AppEnv>, p: { db: string; table: string; format: string; unique_id?: string }) => {
    const started = performance.now();
    const { accountId } = principalOf(c);
    if (p.format !== FORMAT) {
      throw badRequest(
        `The format "${p.format.slice(0, 40)}" is not accepted: send the records as ${FORMAT} (the gzip of concatenated msgpack maps) and put ${FORMAT} in the path.`,
      );
    }
    if (p.unique_id !== undefined && !UNIQUE_ID.test(p.unique_id)) {
      throw badRequest('"unique_id" must be 1 to 255 printable characters without spaces.');
    }
    const database = await requireDatabase(deps.storage.db, accountId, p.db);
    const row = await requireTable(deps.storage.db, accountId, database.id, p.table);
    const body = await readBody(c, importLimits.maxCompressedBytes);
    const args: ImportArgs = { database, table: row.name, body, uniqueId: p.unique_id ?? null };
    const outcome: ImportOutcome = await work(deps).run('ingest.import', args, dataTaskOptions(deps, database));
    return c.json(
      {
        elapsed_time: Math.round(performance.now() - started) / 1000,
        database: database.name,
        table: row.name,
        records: outcome.records,
        unique_id: args.uniqueId,
        duplicate: outcome.duplicate,
      },
      200,
    );
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(importRoute(deps, false), async (c) => handle(c, c.req.valid('param')))
    .openapi(importRoute(deps, true), async (c) => handle(c, c.req.valid('param')));
}
