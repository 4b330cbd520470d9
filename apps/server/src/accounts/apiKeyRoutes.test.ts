import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';

describe('/v3/user/apikey routes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const list = async (who: string, key?: string) => {
    const res = await h.call('GET', `/v3/user/apikey/list/${encodeURIComponent(who)}`, key ? { key } : {});
    return { status: res.status, body: (await res.json()) as { apikeys: string[] } };
  };
  const add = async (who: string, params?: Record<string, string>, key?: string) => {
    const res = await h.call('POST', `/v3/user/apikey/add/${encodeURIComponent(who)}`, {
      ...(params ? { form: params } : {}),
      ...(key ? { key } : {}),
    });
    return { status: res.status, body: (await res.json()) as { apikey: string } };
  };
  /** A second, non-administrator user of the first account with a master key. */
  const member = async (name = 'ann') => {
    await h.call('POST', `/v3/user/add/${name}`, { form: { email: `${name}@first.test`, password: 'long enough pw' } });
    return (await add(name)).body.apikey;
  };

  it('lists a user’s live keys masked', async () => {
    const { status, body } = await list(h.admin.email);
    expect(status).toBe(200);
    expect(body.apikeys).toHaveLength(2);
    for (const masked of body.apikeys) expect(masked).toMatch(/^\d+\/•{8}[0-9a-f]{4}$/);
    expect(body.apikeys[0]).toBe(`${h.admin.masterKey.split('/')[0]}/••••••••${h.admin.masterKey.slice(-4)}`);
  });

  it('creates a master key by default, returned in full once', async () => {
    const { status, body } = await add(h.admin.email);
    expect(status).toBe(200);
    expect(body.apikey).toMatch(/^\d+\/[0-9a-f]{40}$/);
    const validated = await h.call('GET', '/v3/user/apikey/validate', { key: body.apikey });
    expect(await validated.json()).toEqual({
      key_type: 'master',
      account_id: h.admin.accountId,
      user_id: h.admin.userId,
      administrator: true,
    });
    expect((await list(h.admin.email)).body.apikeys).toHaveLength(3);
  });

  it('creates a write-only key that is refused outside imports', async () => {
    const { body } = await add(h.admin.email, { type: 'write-only' });
    expect((await h.call('GET', '/v3/user/show', { key: body.apikey })).status).toBe(403);
  });

  it('refuses an unknown key type with a 400 naming the choices', async () => {
    const { status } = await add(h.admin.email, { type: 'admin' });
    expect(status).toBe(400);
    const res = await h.call('POST', `/v3/user/apikey/add/${h.admin.email}`, { form: { type: 'admin' } });
    expect(((await res.json()) as { message: string }).message).toContain('"type"');
  });

  it('revokes a key named by the full key, its id or its masked form', async () => {
    const keys = [(await add(h.admin.email)).body.apikey, (await add(h.admin.email)).body.apikey];
    const third = (await add(h.admin.email)).body.apikey;
    const masked = (await list(h.admin.email)).body.apikeys.at(-1) as string;
    const refs = [keys[0] as string, (keys[1] as string).split('/')[0] as string, masked];
    for (const apikey of refs) {
      const res = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { apikey: string }).apikey).toMatch(/^\d+\/•{8}[0-9a-f]{4}$/);
    }
    for (const key of [...keys, third]) {
      expect((await h.call('GET', '/v3/user/show', { key })).status).toBe(401);
    }
    expect((await list(h.admin.email)).body.apikeys).toHaveLength(2);
  });

  it('answers 404 for a full key with a wrong secret, and keeps the key', async () => {
    const { apikey } = (await add(h.admin.email)).body;
    const forged = `${apikey.split('/')[0]}/${'0'.repeat(40)}`;
    const res = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey: forged } });
    expect(res.status).toBe(404);
    expect((await h.call('GET', '/v3/user/show', { key: apikey })).status).toBe(200);
  });

  it('asks for the apikey parameter when it is missing', async () => {
    const res = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('Send "apikey"');
  });

  it('lets a user manage their own keys but not another user’s', async () => {
    const annKey = await member('ann');
    await member('bob');
    expect((await list('ann@first.test', annKey)).status).toBe(200);
    expect((await add('ann@first.test', undefined, annKey)).status).toBe(200);
    expect((await list('bob@first.test', annKey)).status).toBe(403);
    expect((await add(h.admin.email, undefined, annKey)).status).toBe(403);
    const removal = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, {
      key: annKey,
      form: { apikey: h.admin.masterKey },
    });
    expect(removal.status).toBe(403);
  });

  it('lets an administrator manage every user’s keys', async () => {
    const annKey = await member('ann');
    expect((await list('ann@first.test')).body.apikeys).toHaveLength(1);
    const res = await h.call('POST', '/v3/user/apikey/remove/ann', {
      form: { apikey: annKey.split('/')[0] as string },
    });
    expect(res.status).toBe(200);
    expect((await h.call('GET', '/v3/user/show', { key: annKey })).status).toBe(401);
  });

  it('answers 404 for a user of another account and will not touch their keys', async () => {
    const other = await h.newAccount('Other');
    expect((await list(other.email)).status).toBe(404);
    expect((await add(other.email)).status).toBe(404);
    const removal = await h.call('POST', `/v3/user/apikey/remove/${encodeURIComponent(other.email)}`, {
      form: { apikey: other.masterKey },
    });
    expect(removal.status).toBe(404);
    expect((await h.call('GET', '/v3/user/show', { key: other.masterKey })).status).toBe(200);
  });

  it('answers 404 when the key belongs to another user than the path names', async () => {
    const annKey = await member('ann');
    const res = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { form: { apikey: annKey } });
    expect(res.status).toBe(404);
  });

  it('refuses a write-only key on every key route', async () => {
    const key = h.admin.writeOnlyKey;
    const calls = [
      h.call('GET', `/v3/user/apikey/list/${h.admin.email}`, { key }),
      h.call('POST', `/v3/user/apikey/add/${h.admin.email}`, { key }),
      h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { key, form: { apikey: key } }),
      h.call('GET', '/v3/user/apikey/validate', { key }),
    ];
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([403, 403, 403, 403]);
  });

  it('never shows a whole key except in the answer that creates it, nor logs one', async () => {
    const created = (await add(h.admin.email, { type: 'write-only' })).body.apikey;
    const known = [h.admin.masterKey, h.admin.writeOnlyKey, created];
    const answers = await Promise.all(
      [
        ['GET', `/v3/user/apikey/list/${h.admin.email}`],
        ['GET', '/v3/user/show'],
        ['GET', '/v3/user/list'],
        ['GET', '/v3/account/show'],
        ['GET', '/v3/user/apikey/validate'],
      ].map(async ([method, path]) => (await h.call(method as string, path as string)).text()),
    );
    const removed = await h.call('POST', `/v3/user/apikey/remove/${h.admin.email}`, { json: { apikey: created } });
    answers.push(await removed.text());
    for (const text of answers) for (const key of known) expect(text).not.toContain(key.split('/')[1]);
    const log = h.logs.join('\n');
    for (const key of known) expect(log).not.toContain(key.split('/')[1]);
  });
});
