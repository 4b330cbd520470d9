import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  bulkImportList,
  bulkImportName,
  bulkImportParts,
  bulkImportPerformed,
  bulkImportReference,
  bulkImportSession,
  dataName,
  errorBody,
  partName,
} from '@svc/contracts';
import type { Context } from 'hono';
import type { JobRunner } from '../jobs';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppEnv } from '../platform/context';
import { badRequest, conflict, payloadTooLarge } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { input } from '../platform/params';
import { atStartup } from '../platform/work';
import { performFiles } from './files';
import { type BulkImportDeps, bulkImportOptions } from './options';
import { bulkImportJobKind } from './performJob';
import * as ops from './service';
import { listParts, listSessions, toWireSession } from './sessions';
import { openFile } from './sharedFiles';

const security = [{ SVC1: [] }];
const errors = (...codes: [number, string][]) =>
  Object.fromEntries(codes.map(([code, description]) => [code, json(errorBody, description)]));
const common = errors([401, 'No valid API key'], [404, 'No such session in the account']);
const session = bulkImportName.meta({ description: 'Bulk import session name', example: 'import_20260101' });
const sessionParams = z.object({ session });
const partParams = z.object({ session, part: partName.meta({ description: 'Part name', example: 'part1' }) });
const ref = (name: string) => ({ name, bulk_import: name });

const performParams = z.object({
  priority: z.coerce.number().int().min(-2).max(2).default(0),
});

const base = (deps: BulkImportDeps) => ({
  security,
  // Write-only keys import data: every bulk import route is theirs (spec, Authentication 2). Every user
  // may write each database of their account (there are no per-database grants), so the account scope
  // of every lookup is the whole check.
  middleware: [apiKeyAuth(deps, { allowWriteOnly: true })],
  tags: ['Bulk import'],
});

const post = (deps: BulkImportDeps, path: string, summary: string, extra: Record<number, unknown> = {}) =>
  createRoute({
    ...base(deps),
    method: 'post',
    path,
    summary,
    request: { params: sessionParams },
    responses: { 200: json(bulkImportReference, 'Done'), ...common, ...(extra as object) },
  });

/**
 * PUT upload_part, which streams a body far larger than ordinary routes take: `createApp` mounts it
 * before the ordinary body limit, and its own limits apply as the bytes arrive.
 */
export function bulkImportUploadRoutes(deps: BulkImportDeps) {
  const upload = createRoute({
    ...base(deps),
    method: 'put',
    path: '/v3/bulk_import/upload_part/{session}/{part}',
    summary: 'Upload a part: the gzip of concatenated msgpack maps (a part of the same name is replaced)',
    request: {
      params: partParams,
      body: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    },
    responses: {
      200: json(bulkImportReference, 'Stored'),
      ...common,
      ...errors(
        [400, 'Not gzip, corrupt msgpack, or a string, array, map or nesting past the limits'],
        [409, 'The session is frozen or past uploading'],
        [413, 'The part is larger than the limit, compressed or decompressed'],
      ),
    },
  });
  return new OpenAPIHono<AppEnv>().openapi(upload, async (c) => {
    const { accountId } = principalOf(c);
    const { session: name, part } = c.req.valid('param');
    const row = await ops.requireSession(deps.storage.db, accountId, name);
    const { limits } = bulkImportOptions(deps);
    const declared = Number(c.req.header('content-length'));
    if (declared > limits.maxCompressedBytes) {
      throw payloadTooLarge(
        `The part is ${declared} bytes, more than the limit of ${limits.maxCompressedBytes}: split it into smaller parts.`,
      );
    }
    const body = c.req.raw.body;
    if (!body) throw badRequest('The part is empty: send the gzip file as the request body.');
    await ops.uploadPart(deps, row, part, body);
    return c.json(ref(name), 200);
  });
}

/** Every other bulk import route; registers the perform job kind and finishes commits a crash left. */
export function bulkImportRoutes(deps: BulkImportDeps, runner: JobRunner) {
  runner.register(bulkImportJobKind(deps));
  atStartup(deps, ops.recoverCommits(deps));
  const b = base(deps);
  // Reading what the account has imported is not importing: the list of every session and the refused records
  // themselves take a master key. A write-only key keeps what an import client needs for its own session
  // (create, upload, perform, show its status, commit, delete).
  const masterOnly = { ...b, middleware: [apiKeyAuth(deps)] };
  const load = (c: Context<AppEnv>, name: string) =>
    ops.requireSession(deps.storage.db, principalOf(c).accountId, name);

  const create = createRoute({
    ...b,
    method: 'post',
    path: '/v3/bulk_import/create/{session}/{db}/{table}',
    summary: 'Create a session importing into a table',
    request: { params: sessionParams.extend({ db: dataName, table: dataName }) },
    responses: {
      200: json(bulkImportReference, 'Created'),
      ...errors([404, 'No such database or table'], [409, 'A session of that name exists']),
    },
  });
  const show = createRoute({
    ...b,
    method: 'get',
    path: '/v3/bulk_import/show/{session}',
    summary: 'A session: status and, once performed, its counts',
    request: { params: sessionParams },
    responses: { 200: json(bulkImportSession, 'The session'), ...common },
  });
  const list = createRoute({
    ...masterOnly,
    method: 'get',
    path: '/v3/bulk_import/list',
    summary: 'Every session of the account (master keys only)',
    responses: { 200: json(bulkImportList, 'The sessions'), ...errors([403, 'A write-only key']) },
  });
  const parts = createRoute({
    ...b,
    method: 'get',
    path: '/v3/bulk_import/list_parts/{session}',
    summary: 'Names of the uploaded parts',
    request: { params: sessionParams },
    responses: { 200: json(bulkImportParts, 'The parts'), ...common },
  });
  const performRoute = createRoute({
    ...b,
    method: 'post',
    path: '/v3/bulk_import/perform/{session}',
    summary: 'Validate the parts in a job of type bulk_import',
    request: { params: sessionParams },
    responses: {
      200: json(bulkImportPerformed, 'The job is queued'),
      ...common,
      ...errors([409, 'Already performing or committed'], [422, 'No parts uploaded']),
    },
  });
  const deletePart = (method: 'put' | 'post') =>
    createRoute({
      ...b,
      method,
      path: '/v3/bulk_import/delete_part/{session}/{part}',
      summary: 'Delete a part',
      request: { params: partParams },
      responses: { 200: json(bulkImportReference, 'Deleted'), ...common, ...errors([409, 'The session is frozen']) },
    });
  const errorRecords = createRoute({
    ...masterOnly,
    method: 'get',
    path: '/v3/bulk_import/error_records/{session}',
    summary: 'Records perform refused, as gzip of msgpack maps (raw body, no Content-Encoding; master keys only)',
    request: { params: sessionParams },
    responses: {
      200: {
        description: 'Gzip of msgpack maps; empty when there are none',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      ...common,
      ...errors([403, 'A write-only key'], [409, 'The perform has not finished']),
    },
  });

  return new OpenAPIHono<AppEnv>()
    .openapi(create, async (c) => {
      const { session: name, db, table } = c.req.valid('param');
      await ops.createSession(deps, principalOf(c), name, db, table);
      return c.json(ref(name), 200);
    })
    .openapi(show, async (c) => c.json(toWireSession(await load(c, c.req.valid('param').session)), 200))
    .openapi(list, async (c) => {
      const rows = await listSessions(deps.storage.db, principalOf(c).accountId);
      return c.json({ bulk_imports: rows.map(toWireSession) }, 200);
    })
    .openapi(parts, async (c) => {
      const { session: name } = c.req.valid('param');
      const names = (await listParts(deps.storage.db, await load(c, name))).map((p) => p.name);
      return c.json({ ...ref(name), parts: names }, 200);
    })
    .openapi(post(deps, '/v3/bulk_import/freeze/{session}', 'Stop uploads'), async (c) => {
      const { session: name } = c.req.valid('param');
      await ops.freeze(deps, await load(c, name));
      return c.json(ref(name), 200);
    })
    .openapi(post(deps, '/v3/bulk_import/unfreeze/{session}', 'Allow uploads again'), async (c) => {
      const { session: name } = c.req.valid('param');
      await ops.unfreeze(deps, await load(c, name));
      return c.json(ref(name), 200);
    })
    .openapi(performRoute, async (c) => {
      const { session: name } = c.req.valid('param');
      const row = await load(c, name);
      const { priority } = await input(c, performParams);
      const jobId = await ops.perform(deps, runner, principalOf(c), row, priority);
      return c.json({ ...ref(name), job_id: jobId }, 200);
    })
    .openapi(post(deps, '/v3/bulk_import/commit/{session}', 'Land the performed rows in the table'), async (c) => {
      const { session: name } = c.req.valid('param');
      await ops.commit(deps, await load(c, name));
      return c.json(ref(name), 200);
    })
    .openapi(post(deps, '/v3/bulk_import/delete/{session}', 'Delete a session and its files'), async (c) => {
      const { session: name } = c.req.valid('param');
      await ops.deleteSession(deps, await load(c, name));
      return c.json(ref(name), 200);
    })
    .openapi(deletePart('put'), async (c) => {
      const { session: name, part } = c.req.valid('param');
      await ops.deletePart(deps, await load(c, name), part);
      return c.json(ref(name), 200);
    })
    .openapi(deletePart('post'), async (c) => {
      const { session: name, part } = c.req.valid('param');
      await ops.deletePart(deps, await load(c, name), part);
      return c.json(ref(name), 200);
    })
    .openapi(errorRecords, async (c) => {
      const row = await load(c, c.req.valid('param').session);
      if (row.status === 'performing') {
        throw conflict(`The bulk import session "${row.name}" is still performing; its error records come after.`);
      }
      const file = row.perform_token
        ? await openFile(deps, row.account_id, performFiles(row, row.perform_token).errors)
        : null;
      c.header('content-type', 'application/octet-stream');
      if (!file) return c.body(new Uint8Array(gzipSync(Buffer.alloc(0))), 200);
      c.header('content-length', String(file.size));
      return c.body(Readable.toWeb(Readable.from(file.read())) as ReadableStream<Uint8Array>, 200);
    });
}
