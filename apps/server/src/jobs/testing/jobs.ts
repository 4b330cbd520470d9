import type { ErrorBody } from '@svc/contracts';
import { expect } from 'vitest';
import type { NewAccount } from '../../accounts';
import { appendRows, requireDatabase } from '../../data';
import type { CallOptions, Harness } from '../../testing/harness';

/** Helpers the job tests share: a table with rows, issuing a query and waiting for its end. */

export async function tableWithRows(
  h: Harness,
  db: string,
  table: string,
  rows: Record<string, unknown>[],
  account: NewAccount = h.admin,
): Promise<void> {
  const key = account.masterKey;
  if ((await h.call('GET', `/v3/database/show/${db}`, { key })).status === 404) {
    expect((await h.call('POST', `/v3/database/create/${db}`, { key })).status).toBe(200);
  }
  expect((await h.call('POST', `/v3/table/create/${db}/${table}/log`, { key })).status).toBe(200);
  if (rows.length > 0) {
    await appendRows(h.deps, await requireDatabase(h.deps.storage.db, account.accountId, db), table, rows);
  }
}

export async function issue(h: Harness, db: string, query: string, opts: CallOptions = {}): Promise<string> {
  const params = opts.json !== undefined || opts.form || opts.body ? {} : { json: { query } };
  const res = await h.call('POST', `/v3/job/issue/presto/${db}`, { ...params, ...opts });
  const body = (await res.json()) as { job_id: string; message?: string };
  expect(res.status, body.message).toBe(200);
  return body.job_id;
}

/** Issues a query and waits for its end. */
export async function run(h: Harness, db: string, query: string, opts: CallOptions = {}) {
  const id = await issue(h, db, query, opts);
  const status = await h.app.services.jobs.whenSettled(Number(id));
  return { id, status };
}

export interface ShownJob extends Record<string, unknown> {
  status: string;
  hive_result_schema: string | null;
  debug: { cmdout: string | null; stderr: string | null };
}

export async function show(h: Harness, id: string): Promise<ShownJob> {
  const res = await h.call('GET', `/v3/job/show/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ShownJob;
}

/** The error body of a failed call. */
export async function errorOf(res: Response): Promise<ErrorBody> {
  return (await res.json()) as ErrorBody;
}
