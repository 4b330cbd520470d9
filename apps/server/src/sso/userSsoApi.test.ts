import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { one, run, sql } from '../platform/storage';
import { consoleCall, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { configureSso, postToAcs, startLogin } from './testing/ssoFlow';
import { TestIdp } from './testing/testIdp';

let h: Harness;
let idp: TestIdp;
const ANN = 'ann@first.test';
const ANN_PASSWORD = 'a long password 1';

beforeEach(async () => {
  h = await createHarness();
  h.clock.set(Date.now());
  idp = await TestIdp.create();
  await h.call('POST', '/v3/user/add/ann', { json: { email: ANN, password: ANN_PASSWORD } });
});
afterEach(() => h.close());

const op = (name: string, pathValue: string, fields: Record<string, unknown>, key?: string) =>
  h.call('POST', `/v3/user/${name}/${encodeURIComponent(pathValue)}`, {
    json: { sso_setting: fields },
    ...(key ? { key } : {}),
  });

async function errorOf(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  return ((await res.json()) as { message: string }).message;
}

const mode = async (email: string) =>
  (
    (await one<{ sso_mode: string }>(h.deps.storage.db, sql`SELECT sso_mode FROM users WHERE email = ${email}`)) as {
      sso_mode: string;
    }
  ).sso_mode;

async function ssoSignIn(identifier: string): Promise<string> {
  const req = await startLogin(h);
  const response = await idp.respond({
    nameId: identifier,
    inResponseTo: req.id,
    acsUrl: req.acsUrl,
    audience: req.issuer,
  });
  const cookie = sessionCookieFrom(await postToAcs(h, req.acsUrl, response, req.relayState));
  if (!cookie) throw new Error('SSO sign-in failed');
  return cookie;
}

const alive = async (cookie: string) => (await consoleCall(h, 'GET', '/console-api/me', { cookie })).status === 200;

describe('create_with_sso', () => {
  it('creates a user who signs in with SSO only', async () => {
    await configureSso(h, idp);
    const res = await op('create_with_sso', 'Dana', {
      user_first_name: 'Dana',
      email: 'dana@first.test',
      identifier: 'dana-1',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ first_name: 'Dana', email: 'dana@first.test', identifier: 'dana-1' });
    expect(await mode('dana@first.test')).toBe('enforced');
  });

  it('validates the first name in the path like every other name', async () => {
    await configureSso(h, idp);
    const fields = { email: 'zed@first.test', identifier: 'zed-1' };
    expect(await errorOf(await op('create_with_sso', 'Z'.repeat(101), fields), 400)).toMatch(/user_first_name.*100/);
    expect(await errorOf(await op('create_with_sso', '  ', fields), 400)).toMatch(/user_first_name.*empty/);
    expect(await errorOf(await op('create_with_sso', 'Ze\u0007d', fields), 400)).toMatch(/control characters/);
    expect(
      await one(h.deps.storage.db, sql`SELECT 1 AS found FROM users WHERE email = 'zed@first.test'`),
    ).toBeUndefined();
  });

  it('accepts the fields at the top level of the body too', async () => {
    await configureSso(h, idp);
    const res = await h.call('POST', '/v3/user/create_with_sso/Eve', {
      json: { user_first_name: 'Eve', email: 'eve@first.test', identifier: 'eve' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses duplicates, a missing setting, a mismatched name and non-administrators', async () => {
    expect(
      await errorOf(
        await op('create_with_sso', 'Dana', { user_first_name: 'Dana', email: 'dana@first.test', identifier: 'd' }),
        409,
      ),
    ).toContain('SSO setting');
    await configureSso(h, idp);
    await op('create_with_sso', 'Dana', { user_first_name: 'Dana', email: 'dana@first.test', identifier: 'dana-1' });
    expect(
      await errorOf(
        await op('create_with_sso', 'Dana', { user_first_name: 'Dana', email: 'dana@first.test', identifier: 'x' }),
        409,
      ),
    ).toContain('already exists');
    expect(
      await errorOf(
        await op('create_with_sso', 'Fay', { user_first_name: 'Fay', email: 'fay@first.test', identifier: 'dana-1' }),
        409,
      ),
    ).toContain('already belongs');
    expect(
      await errorOf(
        await op('create_with_sso', 'Fay', { user_first_name: 'Other', email: 'f@first.test', identifier: 'f' }),
        400,
      ),
    ).toContain('differs');
    expect(
      await errorOf(
        await op('create_with_sso', 'Fay', { user_first_name: 'Fay', email: 'not-an-email', identifier: 'f' }),
        400,
      ),
    ).toContain('email');
    const annKey = ((await (await h.call('POST', `/v3/user/apikey/add/${ANN}`)).json()) as { apikey: string }).apikey;
    expect(
      (await op('create_with_sso', 'Fay', { user_first_name: 'Fay', email: 'fay@first.test', identifier: 'f' }, annKey))
        .status,
    ).toBe(403);
  });
});

describe('required body fields (spec: user_first_name, email, identifier; user_email on disable_sso)', () => {
  it('answers 400 naming each missing field, and changes nothing', async () => {
    await configureSso(h, idp);
    const full = { user_first_name: 'Gus', email: 'gus@first.test', identifier: 'gus-1' };
    for (const field of ['user_first_name', 'email', 'identifier'] as const) {
      const { [field]: _, ...rest } = full;
      const res = await op('create_with_sso', 'Gus', rest);
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ error: 'Bad Request', severity: 'error', status_code: 400 });
      expect(body.message).toBe(`"sso_setting.${field}" is required: send it in the body's sso_setting object.`);
    }
    const none = await errorOf(await op('create_with_sso', 'Gus', {}), 400);
    expect(none).toContain('"sso_setting.user_first_name", "sso_setting.email", "sso_setting.identifier" are required');
    expect(
      await one(h.deps.storage.db, sql`SELECT COUNT(*) AS n FROM users WHERE email = ${'gus@first.test'}`),
    ).toEqual({
      n: 0,
    });
    expect((await op('create_with_sso', 'Gus', full)).status).toBe(200);

    await op('enable_sso', ANN, { user_email: ANN, identifier: 'ann-1' });
    expect(await errorOf(await op('disable_sso', ANN, {}), 400)).toBe(
      '"sso_setting.user_email" is required: send it in the body\'s sso_setting object.',
    );
    expect(await mode(ANN)).toBe('enabled');
    expect((await op('disable_sso', ANN, { user_email: ANN })).status).toBe(200);
    expect(await mode(ANN)).toBe('disabled');
  });
});

describe('enforce, enable and disable SSO', () => {
  it('enforces SSO: ends password sessions, blocks password sign-in, keeps API keys working', async () => {
    await configureSso(h, idp);
    const annKey = ((await (await h.call('POST', `/v3/user/apikey/add/${ANN}`)).json()) as { apikey: string }).apikey;
    const passwordSession = await signIn(h, ANN, ANN_PASSWORD);
    const res = await op('enforce_sso', ANN, { user_email: ANN, identifier: 'ann-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ email: ANN, identifier: 'ann-1' });
    expect(await alive(passwordSession)).toBe(false);
    const login = await consoleCall(h, 'POST', '/console-api/login', { json: { email: ANN, password: ANN_PASSWORD } });
    expect(await errorOf(login, 403)).toContain('Sign in with SSO');
    expect((await h.call('GET', '/v3/user/show', { key: annKey })).status).toBe(200);
    expect(await alive(await ssoSignIn('ann-1'))).toBe(true);
  });

  it('enables SSO without ending sessions, and disabling ends only SSO sessions', async () => {
    await configureSso(h, idp);
    const passwordSession = await signIn(h, ANN, ANN_PASSWORD);
    expect((await op('enable_sso', ANN, { user_email: ANN, identifier: 'ann-1' })).status).toBe(200);
    expect(await mode(ANN)).toBe('enabled');
    const ssoSession = await ssoSignIn('ann-1');
    expect(await alive(passwordSession)).toBe(true);
    const off = await op('disable_sso', ANN, { user_email: ANN });
    expect(off.status).toBe(200);
    expect(await mode(ANN)).toBe('disabled');
    expect(await alive(ssoSession)).toBe(false);
    expect(await alive(passwordSession)).toBe(true);
  });

  it('refuses a path that differs from the body, unknown users, users of other accounts and a missing setting', async () => {
    expect(await errorOf(await op('enforce_sso', ANN, { user_email: ANN, identifier: 'a' }), 409)).toContain(
      'SSO setting',
    );
    await configureSso(h, idp);
    expect(
      await errorOf(await op('enforce_sso', ANN, { user_email: 'bob@first.test', identifier: 'a' }), 400),
    ).toContain('differs');
    expect(
      (await op('enable_sso', 'nobody@first.test', { user_email: 'nobody@first.test', identifier: 'a' })).status,
    ).toBe(404);
    const other = await h.newAccount('Second');
    expect((await op('enable_sso', other.email, { user_email: other.email, identifier: 'a' })).status).toBe(404);
    expect(await errorOf(await op('enable_sso', ANN, { user_email: ANN }), 400)).toContain('identifier');
  });

  it('refuses an identifier that another user of the account has', async () => {
    await configureSso(h, idp);
    await op('enable_sso', ANN, { user_email: ANN, identifier: 'shared' });
    const res = await op('enable_sso', h.admin.email, { user_email: h.admin.email, identifier: 'shared' });
    expect(await errorOf(res, 409)).toContain('already belongs');
  });

  it('refuses to leave no administrator able to sign in', async () => {
    await configureSso(h, idp);
    const res = await op('enforce_sso', h.admin.email, { user_email: h.admin.email, identifier: 'boss' });
    expect(await errorOf(res, 409)).toContain('no administrator able to sign in');
    expect(await mode(h.admin.email)).toBe('disabled');
    await h.call('POST', '/v3/user/add/second', {
      json: { email: 'second@first.test', password: 'a long password 2', administrator: true },
    });
    expect((await op('enforce_sso', h.admin.email, { user_email: h.admin.email, identifier: 'boss' })).status).toBe(
      200,
    );
    const blocked = await op('enforce_sso', 'second@first.test', {
      user_email: 'second@first.test',
      identifier: 'second',
    });
    expect(blocked.status).toBe(409);
  });

  it('counts SSO as a way in once Test SSO has passed', async () => {
    await configureSso(h, idp);
    await op('enable_sso', h.admin.email, { user_email: h.admin.email, identifier: 'boss' });
    await run(h.deps.storage.db, sql`UPDATE sso_settings SET tested_at = ${Date.now()}`);
    expect((await op('enforce_sso', h.admin.email, { user_email: h.admin.email, identifier: 'boss' })).status).toBe(
      200,
    );
  });
});

describe('audit log', () => {
  it('records setting and user SSO changes for administrators to read', async () => {
    await configureSso(h, idp);
    await op('enable_sso', ANN, { user_email: ANN, identifier: 'ann-1' });
    const res = await h.call('GET', '/v3/account/audit_log?action=sso_setting.create,user.enable_sso');
    const { events } = (await res.json()) as { events: { action: string; actor: string; target: string | null }[] };
    expect(events.map((e) => e.action)).toEqual(['user.enable_sso', 'sso_setting.create']);
    expect(events[0]).toMatchObject({ actor: h.admin.email, target: ANN });
    const annKey = ((await (await h.call('POST', `/v3/user/apikey/add/${ANN}`)).json()) as { apikey: string }).apikey;
    expect((await h.call('GET', '/v3/account/audit_log', { key: annKey })).status).toBe(403);
  });

  it('pages back with before', async () => {
    await configureSso(h, idp);
    await configureSso(h, idp);
    const log = '/v3/account/audit_log?action=sso_setting.create,sso_setting.update&limit=1';
    const first = (await (await h.call('GET', log)).json()) as { next_before: number };
    const older = (await (await h.call('GET', `${log}&before=${first.next_before}`)).json()) as {
      events: { action: string }[];
      next_before: number | null;
    };
    expect(older.events[0]?.action).toBe('sso_setting.create');
    expect(older.next_before).toBeNull();
  });
});
