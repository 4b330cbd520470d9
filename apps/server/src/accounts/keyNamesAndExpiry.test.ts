import type { ConsoleApiKey } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleCall, signIn } from '../session/testClient';
import { createHarness, type Harness } from '../testing/harness';

/** API keys have a name and an optional expiry; expired keys get a 401 that says so; administrators see everyone's. */
describe('API key names, expiry and listing by user', () => {
  let h: Harness;
  let cookie: string;
  const HOUR = 3_600_000;
  const call = (method: string, path: string, json?: unknown, as = cookie) =>
    consoleCall(h, method, path, { cookie: as, ...(json === undefined ? {} : { json }) });
  const message = async (res: Response) => ((await res.json()) as { message: string }).message;
  const create = async (json: Record<string, unknown>, as = cookie) => {
    const res = await call('POST', '/console-api/api-keys', json, as);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as { apiKey: ConsoleApiKey; key: string };
  };
  const list = async (query = '', as = cookie) => {
    const res = await call('GET', `/console-api/api-keys${query}`, undefined, as);
    return {
      status: res.status,
      keys: res.status === 200 ? ((await res.json()) as { apiKeys: ConsoleApiKey[] }).apiKeys : [],
    };
  };
  const inAnHour = () => new Date(h.clock.now().getTime() + HOUR).toISOString();

  beforeEach(async () => {
    h = await createHarness();
    cookie = await signIn(h);
  });
  afterEach(() => h.close());

  it('needs a name, and an expiry that is ahead but not too far', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'master' }, 'Give the key a name'],
      [{ type: 'master', name: '   ' }, 'Give the key a name'],
      [{ type: 'master', name: 'x'.repeat(101) }, 'at most 100 characters'],
      [{ type: 'master', name: 'CI', expiresAt: 'tomorrow' }, 'ISO 8601'],
      [{ type: 'master', name: 'CI', expiresAt: '2026-11-22T08:59:00Z' }, 'The expiry is in the past'],
      [{ type: 'master', name: 'CI', expiresAt: '2040-01-01T00:00:00Z' }, 'days ahead'],
    ];
    for (const [json, words] of cases) {
      const res = await call('POST', '/console-api/api-keys', json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(await message(res), JSON.stringify(json)).toContain(words);
    }
    const v3 = await h.call('POST', `/v3/user/apikey/add/${h.admin.email}`, { form: { expires_at: 'soon' } });
    expect(v3.status).toBe(400);
    expect(await message(v3)).toContain('ISO 8601');
  });

  it('works until it expires, then answers 401 saying so, also to ingestion, without counting as a guess', async () => {
    const { apiKey, key } = await create({ type: 'master', name: 'Quarter report', expiresAt: inAnHour() });
    expect(apiKey).toMatchObject({ name: 'Quarter report', expiresAt: '2026-11-22T10:00:00.000Z', expired: false });
    expect((await h.call('GET', '/v3/user/show', { key })).status).toBe(200);
    const { key: writeKey } = await create({ type: 'write-only', name: 'Shop SDK', expiresAt: inAnHour() });

    h.clock.advance(HOUR);
    const refused = await h.call('GET', '/v3/user/show', { key });
    expect(refused.status).toBe(401);
    expect(await message(refused)).toBe(
      'This API key ("Quarter report") expired at 2026-11-22T10:00:00.000Z. Create a new key in the console under Settings › API keys, and use it instead.',
    );
    await h.call('POST', '/v3/database/create/web_events');
    const ingest = await h.call('POST', '/postback/v3/event/web_events/visits', {
      key: null,
      json: { page: '/' },
      headers: { 'x-svc-write-key': writeKey },
    });
    expect(ingest.status).toBe(401);
    expect(await message(ingest)).toContain('("Shop SDK") expired at');
    // 25 uses of an expired key are not 25 guesses: no 429 for the address.
    for (let i = 0; i < 25; i++) expect((await h.call('GET', '/v3/user/show', { key })).status).toBe(401);
    expect((await h.call('GET', '/v3/user/show')).status).toBe(200);

    cookie = await signIn(h); // an hour idle ended the console session too
    const { keys } = await list();
    expect(keys.find((k) => k.id === apiKey.id)).toMatchObject({ expired: true, expiresAt: apiKey.expiresAt });
    // An expired key is still there to revoke.
    expect((await call('DELETE', `/console-api/api-keys/${apiKey.id}`)).status).toBe(200);
  });

  it('takes a name and expiry on /v3 too, and names keys made without one', async () => {
    const named = await h.call('POST', `/v3/user/apikey/add/${h.admin.email}`, {
      form: { name: 'td CLI', expires_at: '2026-12-01' },
    });
    const unnamed = await h.call('POST', `/v3/user/apikey/add/${h.admin.email}`);
    const ids = [named, unnamed].map(async (r) =>
      Number(((await r.json()) as { apikey: string }).apikey.split('/')[0]),
    );
    const [namedId, unnamedId] = await Promise.all(ids);
    const { keys } = await list();
    expect(keys.find((k) => k.id === namedId)).toMatchObject({ name: 'td CLI', expiresAt: '2026-12-01T00:00:00.000Z' });
    expect(keys.find((k) => k.id === unnamedId)).toMatchObject({
      name: 'Created with /v3/user/apikey/add',
      expiresAt: null,
    });
  });

  it('lists your own keys; administrators list one user’s or everyone’s, and revoke them', async () => {
    const user = await call('POST', '/console-api/users', {
      name: 'ann',
      email: 'ann@first.test',
      password: 'long enough pw',
    });
    const annId = ((await user.json()) as { user: { id: number } }).user.id;
    const annCookie = await signIn(h, 'ann@first.test', 'long enough pw');
    const annKey = (await create({ type: 'write-only', name: 'Ann’s SDK' }, annCookie)).apiKey;

    const own = await list('', annCookie);
    expect(own.keys.map((k) => [k.name, k.ownerEmail])).toEqual([['Ann’s SDK', 'ann@first.test']]);
    expect((await list('?user=all', annCookie)).status).toBe(403);
    expect((await list(`?user=${h.admin.userId}`, annCookie)).status).toBe(403);
    expect((await list(`?user=${annId}`, annCookie)).keys).toHaveLength(1);
    expect((await list('?user=someone')).status).toBe(400);

    expect((await list()).keys.map((k) => k.name)).toEqual(['First master key', 'First write-only key']);
    expect((await list(`?user=${annId}`)).keys.map((k) => k.id)).toEqual([annKey.id]);
    const everyone = (await list('?user=all')).keys;
    expect(everyone.map((k) => k.ownerEmail)).toEqual([h.admin.email, h.admin.email, 'ann@first.test']);
    const other = await h.newAccount('Other');
    expect((await list(`?user=${other.userId}`)).keys).toEqual([]);

    expect((await call('DELETE', `/console-api/api-keys/${annKey.id}`)).status).toBe(200);
    expect((await list('', annCookie)).keys).toEqual([]);
  });
});
