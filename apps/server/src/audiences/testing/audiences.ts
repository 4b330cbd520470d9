import { expect } from 'vitest';
import type { CallOptions, Harness } from '../../testing/harness';

/** Helpers the audiences tests share: data imported through the records API, parent segments built. */

export type Json = Record<string, unknown>;
export const DAY = 86400;

export async function ok<T = Json>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  const body = (await r.json()) as T;
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

/** Imports rows with the records API (the real ingestion path); the database is created when missing. */
export async function importRows(h: Harness, db: string, table: string, rows: Json[], key?: string) {
  const opts: CallOptions = key ? { key } : {};
  const created = await h.call('POST', `/v3/database/create/${db}`, opts);
  expect([200, 409]).toContain(created.status);
  for (let i = 0; i < rows.length; i += 500) {
    await ok(h.call('POST', `/${db}/${table}`, { ...opts, json: { events: rows.slice(i, i + 500) } }));
  }
}

/** Now on the harness clock, in Unix seconds. */
export const nowSeconds = (h: Harness) => Math.floor(h.clock.now().getTime() / 1000);

/** Waits for the parent segment's newest build to end and returns the record. */
async function built(h: Harness, record: Json, key?: string): Promise<Json> {
  const status = await h.app.services.jobs.whenSettled(Number(record.buildJobId));
  expect(status).toBe('success');
  return ok(h.call('GET', `/audiences/${record.id}`, key ? { key } : {}));
}

export async function createParentSegment(h: Harness, body: Json, key?: string): Promise<Json> {
  const record = await ok(h.call('POST', '/audiences', { json: body, ...(key ? { key } : {}) }));
  return built(h, record, key);
}

/** Keys of the profiles an unsaved rule matches. */
export async function keysOf(h: Harness, id: unknown, rule: Json): Promise<string[]> {
  const body = await ok<{ profiles: { key: string }[]; population: number }>(
    h.call('POST', `/audiences/${id}/sample`, { json: { rule, limit: 100 } }),
  );
  expect(body.population).toBe(body.profiles.length);
  return body.profiles.map((p) => p.key).sort();
}

/** Adds a user (not an administrator) to the first account through the users API; returns its id and key. */
export async function addUser(h: Harness, name: string): Promise<{ userId: string; key: string }> {
  await ok(
    h.call('POST', `/v3/user/add/${name}`, { form: { email: `${name}@first.test`, password: 'long enough pw' } }),
  );
  const { apikey } = await ok<{ apikey: string }>(h.call('POST', `/v3/user/apikey/add/${name}`));
  const { user_id } = await ok<{ user_id: number }>(h.call('GET', '/v3/user/apikey/validate', { key: apikey }));
  return { userId: String(user_id), key: apikey };
}
