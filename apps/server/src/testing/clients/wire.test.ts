import { gunzipSync } from 'node:zlib';
import { encodePart } from '@svc/bulk-format';
import { unpackMultiple } from 'msgpackr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_WIRE } from '../contracts/clientWire';
import { ROUTES_WIRE } from '../contracts/clientWireRoutes';
import type { Encoding, WireFact } from '../contracts/wireFact';
import { createHarness, type Harness } from '../harness';

/**
 * The requests td-client-ruby, td-client-python and the td CLI send (contracts/clientWire.ts), sent exactly
 * so (encoding, `TD1`, their User-Agent), and the answers checked for every field those clients read.
 */

const FAMILY: Record<Encoding, string> = { form: 'rb', multipart: 'py', json: 'json' };
const AGENT: Record<Encoding, string> = {
  form: 'TD-Client-Ruby: 3.0.0 (ruby 3.3.0; x86_64-linux)',
  multipart: 'TD-Client-Python/1.7.0',
  json: 'TD: 0.19.1; TD-Client-Ruby: 3.0.0',
};

let h: Harness;
const world: Record<string, string> = {};
const userKeys: Record<string, string> = {};

async function must(res: Response | Promise<Response>): Promise<Record<string, unknown>> {
  const r = await res;
  const text = await r.text();
  if (r.status !== 200) throw new Error(`setting up the world: ${r.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

beforeAll(async () => {
  h = await createHarness();
  await must(h.call('POST', '/v3/database/create/wire_db'));
  const records = await h.app.request('/wire_db/events', {
    method: 'POST',
    headers: { authorization: `TD1 ${h.admin.writeOnlyKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events: [1, 2, 3].map((n) => ({ time: 1_700_000_000 + n, page: `/p${n}`, n })) }),
  });
  expect(records.status).toBe(200);
  const job = await must(
    h.call('POST', '/v3/job/issue/presto/wire_db', { json: { query: 'SELECT page FROM events' } }),
  );
  world.job = String(job.job_id);
  expect(await h.app.services.jobs.whenSettled(Number(world.job))).toBe('success');
  for (const f of ['rb', 'py']) {
    await must(
      h.call('POST', `/v3/user/add/wire_${f}`, {
        form: { email: `wire_${f}@first.test`, password: 'a wire password 1' },
      }),
    );
    userKeys[f] = (await must(h.call('POST', `/v3/user/apikey/add/wire_${f}`))).apikey as string;
    await must(h.call('POST', `/v3/user/apikey/add/wire_${f}`));
    const listed = (await must(h.call('GET', `/v3/user/apikey/list/wire_${f}`))).apikeys as string[];
    world[`masked_key_${f}`] = listed[1] as string;
    await must(h.call('POST', `/v3/bulk_import/create/bd_${f}/wire_db/events`));
  }
}, 60_000);
afterAll(() => h?.close());

function fill(text: string, f: string): string {
  return text
    .replaceAll('{f}', f)
    .replace(/\{(\w+)\}/g, (_, name: string) => world[`${name}_${f}`] ?? world[name] ?? `{${name}}`);
}
const fillAll = (params: Record<string, unknown>, f: string) =>
  JSON.parse(fill(JSON.stringify(params), f)) as Record<string, unknown>;

/** The request as the client builds it. */
async function request(fact: WireFact, encoding: Encoding, f: string): Promise<Request> {
  const headers = new Headers({ 'user-agent': AGENT[encoding], date: new Date().toUTCString() });
  if (fact.key !== 'none') headers.set('authorization', `TD1 ${fact.key === 'user' ? userKeys[f] : h.admin.masterKey}`);
  const params = fact.params ? fillAll(fact.params, f) : undefined;
  let body: RequestInit['body'];
  if (fact.part) {
    headers.set('content-type', 'application/octet-stream');
    body = await encodePart([{ time: 1_700_000_100, page: '/bulk' }, { page: '/no-time' }]);
  } else if (fact.method !== 'GET' && fact.method !== 'DELETE') {
    if (encoding === 'json') {
      headers.set('content-type', 'application/json; charset=utf-8');
      body = JSON.stringify(params ?? {});
    } else if (encoding === 'form') {
      // td-client-ruby sends the form even when it is empty.
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(
        Object.entries(params ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
    } else if (params) {
      const form = new FormData();
      for (const [k, v] of Object.entries(params)) form.set(k, String(v));
      body = form;
    }
  } else if (encoding === 'json') {
    headers.set('content-type', 'application/json; charset=utf-8');
  }
  return new Request(`http://api.test${fill(fact.path, f)}`, { method: fact.method, headers, body: body ?? null });
}

/** The values at a path of `reads`: `a.b`, `list[].x` (every element of a non-empty list), `[].x` at the root. */
function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const step of path.split('.')) {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    current = current.flatMap((v) => {
      const got = key === '' ? v : (v as Record<string, unknown> | null)?.[key];
      if (!each) return [got];
      expect(Array.isArray(got) && got.length > 0, `${path}: a non-empty list`).toBe(true);
      return got as unknown[];
    });
  }
  return current;
}

function check(value: unknown, type: string, path: string) {
  const [base, orNull] = type.split('|');
  if (orNull === 'null' && value === null) return;
  const where = `${path} should be ${type}, is ${JSON.stringify(value)}`;
  switch (base) {
    case 'present':
      expect(value, where).not.toBeUndefined();
      break;
    case 'truthy':
      expect(value, where).toBeTruthy();
      break;
    case 'integer':
      expect(Number.isInteger(value), where).toBe(true);
      break;
    case 'array':
      expect(Array.isArray(value), where).toBe(true);
      break;
    case 'object':
      expect(value !== null && typeof value === 'object' && !Array.isArray(value), where).toBe(true);
      break;
    case 'json-text':
      expect(typeof value, where).toBe('string');
      expect(() => JSON.parse(value as string), where).not.toThrow();
      break;
    default:
      expect(typeof value, where).toBe(base);
  }
}

describe.each(
  [...CLIENT_WIRE, ...ROUTES_WIRE].map(
    (fact) => [`${fact.method} ${fact.path} (${fact.by.join(', ')})`, fact] as const,
  ),
)('%s', (_, fact) => {
  it.each(fact.encodings)('answers what the clients read, sent as %s', async (encoding) => {
    const f = FAMILY[encoding];
    const res = await h.app.request(await request(fact, encoding, f));
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString().slice(0, 300)).toBe(fact.status ?? 200);
    if (fact.reads === 'msgpack') {
      expect(unpackMultiple(bytes)?.length).toBeGreaterThan(0);
    } else if (fact.reads === 'gzip') {
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(() => gunzipSync(bytes)).not.toThrow();
    } else if (fact.reads === 'text') {
      expect(bytes.length).toBeGreaterThan(0);
    } else {
      const body = JSON.parse(bytes.toString()) as unknown;
      // PY and RB parse every answer as JSON and some check it is an object (or, for bulk load lists, an array).
      expect(body).not.toBeNull();
      for (const [path, type] of Object.entries(fact.reads)) {
        for (const value of valuesAt(body, path)) check(value, type, path);
      }
      if (fact.status === 422) {
        expect((body as { message: string }).message).toMatch(/not offered by this server|cannot be issued here/);
      }
    }
    if (fact.settle) {
      const id = (JSON.parse(bytes.toString()) as { job_id: unknown }).job_id;
      await h.app.services.jobs.whenSettled(Number(id));
    }
  });
});
