import { gunzipSync } from 'node:zlib';
import { type BulkRecord, encodePart } from '@svc/bulk-format';
import { unpackMultiple } from 'msgpackr';
import { expect } from 'vitest';
import { dataPlane, requireDatabase } from '../../data';
import { type CallOptions, createHarness, type Harness } from '../../testing/harness';
import type { BulkImportDeps } from '../options';

/** Helpers the bulk import tests share: HTTP calls of the session flow, with their answers checked. */

export type Json = Record<string, unknown>;

export async function ok(res: Response | Promise<Response>): Promise<Json> {
  const r = await res;
  const body = (await r.json()) as Json;
  expect(r.status, JSON.stringify(body)).toBe(200);
  return body;
}

export async function failure(res: Response | Promise<Response>, status: number): Promise<string> {
  const r = await res;
  const body = (await r.json()) as { message: string; status_code: number };
  expect(r.status, body.message).toBe(status);
  expect(body.status_code).toBe(status);
  return body.message;
}

export async function databaseAndTable(h: Harness, db: string, table: string, key?: string): Promise<void> {
  const opts: CallOptions = key ? { key } : {};
  await ok(h.call('POST', `/v3/database/create/${db}`, opts));
  await ok(h.call('POST', `/v3/table/create/${db}/${table}/log`, opts));
}

/** An app with database `shop`, table `events` and bulk import session `s1` into it. */
export async function harnessWithSession(): Promise<Harness> {
  const h = await createHarness();
  await databaseAndTable(h, 'shop', 'events');
  await ok(h.call('POST', '/v3/bulk_import/create/s1/shop/events'));
  return h;
}

export async function upload(h: Harness, session: string, part: string, bytes: Uint8Array, key?: string) {
  return h.call('PUT', `/v3/bulk_import/upload_part/${session}/${part}`, {
    body: bytes,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) },
    ...(key ? { key } : {}),
  });
}

export async function uploadRows(h: Harness, session: string, part: string, rows: BulkRecord[], key?: string) {
  return ok(upload(h, session, part, await encodePart(rows), key));
}

export async function show(h: Harness, session: string, key?: string): Promise<Json> {
  return ok(h.call('GET', `/v3/bulk_import/show/${session}`, key ? { key } : {}));
}

/** Performs and waits for the job to end; returns the job id and its final status. */
export async function performAndWait(h: Harness, session: string, key?: string) {
  const body = await ok(h.call('POST', `/v3/bulk_import/perform/${session}`, key ? { key } : {}));
  const jobId = body.job_id as number;
  const status = await h.app.services.jobs.whenSettled(jobId);
  return { jobId, status, body };
}

/** The error records of a session, decoded. */
export async function errorRecords(h: Harness, session: string, key?: string): Promise<unknown[]> {
  const res = await h.call('GET', `/v3/bulk_import/error_records/${session}`, key ? { key } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBeNull();
  const raw = new Uint8Array(await res.arrayBuffer());
  const plain = gunzipSync(raw);
  return plain.length === 0 ? [] : (unpackMultiple(plain) as unknown[]);
}

/** Rows of a table read straight from the data plane, ordered by time then insertion. */
export async function tableRows(h: Harness, db: string, table: string, accountId = h.admin.accountId): Promise<Json[]> {
  const database = await requireDatabase(h.deps.storage.db, accountId, db);
  return (await dataPlane(h.deps).rows(database, table)) as Json[];
}

export const bulkDeps = (h: Harness) => h.deps as BulkImportDeps;
