import { encodePart } from '@svc/bulk-format';
import { CONSOLE_HEADER } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { databaseAndTable, ok, performAndWait, show } from './testing/bulkImport';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const rows = [
  { time: 1700000000, user: 'ann' },
  { time: 1700000001, user: 'bob' },
];

/** PUT upload_part the way the import wizard sends it: the session cookie, raw gzip bytes. */
async function uploadWithCookie(cookie: string, bytes: Uint8Array, withHeader: boolean) {
  const headers: Record<string, string> = {
    cookie,
    'content-type': 'application/octet-stream',
    'content-length': String(bytes.length),
  };
  if (withHeader) headers[CONSOLE_HEADER] = '1';
  return h.app.request('/v3/bulk_import/upload_part/s1/part-1', { method: 'PUT', headers, body: bytes });
}

describe('uploading bulk import parts with a console session', () => {
  it('accepts a part sent with the session cookie and the console header, and the rows can be performed', async () => {
    await databaseAndTable(h, 'shop', 'events');
    const cookie = await signIn(h);
    await ok(consoleCall(h, 'POST', '/v3/bulk_import/create/s1/shop/events', { cookie }));
    const res = await uploadWithCookie(cookie, await encodePart(rows), true);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ name: 's1', bulk_import: 's1' });
    await ok(consoleCall(h, 'POST', '/v3/bulk_import/freeze/s1', { cookie }));
    const { status } = await performAndWait(h, 's1');
    expect(status).toBe('success');
    expect(await show(h, 's1')).toMatchObject({ status: 'ready', valid_records: 2, error_records: 0 });
  });

  it('refuses a part sent with the cookie but without the console header (401), storing nothing', async () => {
    await databaseAndTable(h, 'shop', 'events');
    const cookie = await signIn(h);
    await ok(consoleCall(h, 'POST', '/v3/bulk_import/create/s1/shop/events', { cookie }));
    const res = await uploadWithCookie(cookie, await encodePart(rows), false);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { status_code: number }).status_code).toBe(401);
    expect(await ok(h.call('GET', '/v3/bulk_import/list_parts/s1'))).toMatchObject({ parts: [] });
  });

  it('refuses a part with no cookie and no key (401)', async () => {
    const bytes = await encodePart(rows);
    const res = await h.app.request('/v3/bulk_import/upload_part/s1/part-1', {
      method: 'PUT',
      headers: { [CONSOLE_HEADER]: '1', 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(res.status).toBe(401);
  });
});
