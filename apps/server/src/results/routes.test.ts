import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { one, sql } from '../platform/storage';
import { createHarness, type Harness } from '../testing/harness';
import { responseErrors } from '../testing/oasContract';
import { maskUrl } from './maskUrl';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(() => h.close());

const list = async (key?: string) => (await h.call('GET', '/v3/result/list', key ? { key } : {})).json();

describe('result connections', () => {
  it('lists nothing at first, in the shape clients require', async () => {
    const res = await h.call('GET', '/v3/result/list');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ results: [] });
  });

  it('saves a connection from a form and lists it per the OpenAPI schema', async () => {
    const res = await h.call('POST', '/v3/result/create/out_table', { form: { url: 'td://@/analytics/daily' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'out_table', result: 'out_table' });
    const body = await list();
    expect(body).toEqual({ results: [{ name: 'out_table', url: 'td://@/analytics/daily', organization: null }] });
    expect(responseErrors('get', '/result/list', body)).toEqual([]);
    // The schema is live: an entry without its url does not pass.
    expect(responseErrors('get', '/result/list', { results: [{ name: 'x', organization: null }] })).not.toEqual([]);
  });

  it('stores credentials in a URL but never returns them', async () => {
    const secretUrl = 'mysql://loader:s3cr3t-pw@db.example.com:3306/sales?apikey=K3Y&table=t&password=p%40ss';
    await h.call('POST', '/v3/result/create/mysql_out', { json: { url: secretUrl } });
    await h.call('POST', '/v3/result/create/td_key', { form: { url: 'td://1234%2Fabcdef@/db/table' } });
    const res = await h.call('GET', '/v3/result/list');
    const text = await res.text();
    expect(text).not.toMatch(/s3cr3t|K3Y|p%40ss|abcdef/);
    const { results } = JSON.parse(text) as { results: { name: string; url: string }[] };
    expect(results.map((r) => r.url)).toEqual([
      'mysql://loader:***@db.example.com:3306/sales?apikey=***&table=t&password=***',
      'td://***@/db/table',
    ]);
    // Stored as given, for the job that will write there.
    const row = (await one<{ url: string }>(
      h.deps.storage.db,
      sql`SELECT url FROM result_connections WHERE name = 'mysql_out'`,
    )) as { url: string };
    expect(row.url).toBe(secretUrl);
  });

  it('deletes a connection, and answers 404 for one that is not there', async () => {
    await h.call('POST', '/v3/result/create/gone', { form: { url: 's3://bucket/path' } });
    const res = await h.call('POST', '/v3/result/delete/gone');
    expect(await res.json()).toEqual({ name: 'gone', result: 'gone' });
    expect(await list()).toEqual({ results: [] });
    const again = await h.call('POST', '/v3/result/delete/gone');
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: 'Resource not found', status_code: 404 });
  });

  it('refuses a duplicate name with 409', async () => {
    await h.call('POST', '/v3/result/create/dup', { form: { url: 's3://bucket/a' } });
    const res = await h.call('POST', '/v3/result/create/dup', { form: { url: 's3://bucket/b' } });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/already exists/);
  });

  it('refuses a missing, malformed or private URL and a bad name with a 400 that says why', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['/v3/result/create/a_name', {}, /Send "url"/],
      ['/v3/result/create/a_name', { url: 'no scheme here' }, /must start with a scheme/],
      ['/v3/result/create/a_name', { url: 'http://127.0.0.1:8080/hook' }, /loopback or private address/],
      ['/v3/result/create/a_name', { url: 'postgresql://u:p@192.168.1.4/db' }, /loopback or private address/],
      [`/v3/result/create/${'n'.repeat(300)}`, { url: 's3://b/p' }, /1 to 255 characters/],
      ["/v3/result/create/it's", { url: 's3://b/p' }, /letters, digits/],
    ];
    for (const [path, form, message] of cases) {
      const res = await h.call('POST', path, { form });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
  });

  it('refuses alternate loopback spellings and local schemes at save', async () => {
    const urls = [
      'http://127.1/hook',
      'https://2130706433/hook',
      'https://0x7f000001/hook',
      'https://0177.0.0.1/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost./hook',
      'mysql://u:p@127.1:3306/db',
      'postgresql://u:p@2130706433/db',
      'redis://0x7f000001:6379',
      'http://169.254.169.254/latest/meta-data',
      'file:///etc/passwd',
      'file:/etc/passwd',
    ];
    for (const url of urls) {
      const res = await h.call('POST', '/v3/result/create/probe', { form: { url } });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { message: string }).message, url).toMatch(
        /loopback or private address|link-local or reserved|may not use "file:"/,
      );
    }
    expect(await list()).toEqual({ results: [] });
  });

  it("keeps each account's connections to itself", async () => {
    const other = await h.newAccount('Other');
    await h.call('POST', '/v3/result/create/mine', { form: { url: 's3://bucket/mine' } });
    expect(await list(other.masterKey)).toEqual({ results: [] });
    expect((await h.call('POST', '/v3/result/delete/mine', { key: other.masterKey })).status).toBe(404);
    expect(((await list()) as { results: unknown[] }).results).toHaveLength(1);
  });

  it('refuses write-only keys', async () => {
    const res = await h.call('GET', '/v3/result/list', { key: h.admin.writeOnlyKey });
    expect(res.status).toBe(403);
  });
});

describe('maskUrl', () => {
  it('masks user info, key-like query parameters, and leaves the rest alone', () => {
    expect(maskUrl('https://user:pw@host/p?x=1#frag')).toBe('https://user:***@host/p?x=1#frag');
    expect(maskUrl('s3://bucket/path?access_key_id=A&secret_access_key=B&region=us')).toBe(
      's3://bucket/path?access_key_id=A&secret_access_key=***&region=us',
    );
    expect(maskUrl('webhook://h/p?token=abc&api_key=def')).toBe('webhook://h/p?token=***&api_key=***');
    expect(maskUrl('td://@/db/table')).toBe('td://@/db/table');
  });
});
