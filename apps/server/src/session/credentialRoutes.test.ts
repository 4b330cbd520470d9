import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limits } from '../platform/limits';
import { many, sql } from '../platform/storage';
import { configureSso } from '../sso/testing/ssoFlow';
import { TestIdp } from '../sso/testing/testIdp';
import { consoleCall, PASSWORD, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';

let h: Harness;
const ANN = 'ann@first.test';
const ANN_PASSWORD = 'a long password 1';
let annKey: string;

beforeEach(async () => {
  h = await createHarness();
  expect((await h.call('POST', '/v3/user/add/ann', { form: { email: ANN, password: ANN_PASSWORD } })).status).toBe(200);
  const key = await h.call('POST', `/v3/user/apikey/add/ann`);
  annKey = ((await key.json()) as { apikey: string }).apikey;
});
afterEach(() => h.close());

/** What td-client-ruby sends: a form with `user` and `password`, no Authorization header. */
const authenticate = (user: string, password: string) =>
  h.call('POST', '/v3/user/authenticate', { key: null, form: { user, password } });

async function message(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(expect.arrayContaining(['error', 'message', 'severity', 'status_code', 'text']));
  return body.message as string;
}

const alive = async (cookie: string) => (await consoleCall(h, 'GET', '/console-api/me', { cookie })).status === 200;

const audit = (action: string) =>
  many<{ actor: string; target: string; details: string | null }>(
    h.deps.storage.db,
    sql`SELECT actor, target, details FROM audit_events WHERE action = ${action} ORDER BY id`,
  );

describe('POST /v3/user/authenticate', () => {
  it('gives a working master key for the e-mail and password (form, as td account sends them)', async () => {
    const res = await authenticate(ANN, ANN_PASSWORD);
    expect(res.status).toBe(200);
    const { apikey } = (await res.json()) as { apikey: string };
    expect(apikey).toMatch(/^\d+\/[0-9a-f]{40}$/);
    const me = await h.call('GET', '/v3/user/show', { key: apikey });
    expect(((await me.json()) as { email: string }).email).toBe(ANN);
    // A master key: it may read, not only import.
    expect((await h.call('GET', '/v3/database/list', { key: apikey })).status).toBe(200);
    // One sign-in entry (by password, through the API) and one key created, never its secret.
    const signIns = await audit('user.sign_in');
    expect(signIns.map((a) => [a.target, JSON.parse(a.details ?? '{}').via])).toEqual([[ANN, 'api']]);
    const created = (await audit('api_key.create')).filter((a) => JSON.parse(a.details ?? '{}').via === 'password');
    expect(created.map((a) => a.target)).toEqual([ANN]);
    expect(created[0]?.details).not.toContain(apikey.split('/')[1]);
  });

  it('reads multipart too (td-client-python) and matches the e-mail without regard to case', async () => {
    const form = new FormData();
    form.set('user', ANN.toUpperCase());
    form.set('password', ANN_PASSWORD);
    const res = await h.app.request('/v3/user/authenticate', { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { apikey: string }).apikey).toMatch(/^\d+\//);
  });

  it('answers a wrong password and an unknown e-mail alike, as the console sign-in does', async () => {
    const wrong = await message(await authenticate(ANN, 'not the password'), 401);
    const unknown = await message(await authenticate('nobody@first.test', ANN_PASSWORD), 401);
    expect(wrong).toBe(unknown);
    const consoleAnswer = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: ANN, password: 'not the password' },
    });
    expect(await message(consoleAnswer, 401)).toBe(wrong);
    expect(await message(await authenticate(ANN, ''), 400)).toContain('"password"');
  });

  it('goes through the sign-in throttle: 429 with Retry-After, shared with the console, and audited', async () => {
    for (let i = 0; i < limits.loginAttempts; i++) await message(await authenticate(ANN, `wrong ${i}`), 401);
    const throttled = await authenticate(ANN, ANN_PASSWORD);
    expect(await message(throttled, 429)).toMatch(/Too many failed sign-in attempts/);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    const viaConsole = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: ANN, password: ANN_PASSWORD },
    });
    expect(viaConsole.status).toBe(429);
    expect((await audit('user.login_throttled')).map((a) => a.target)).toEqual([ANN]);
    // After the backoff the right password works again.
    h.clock.advance(limits.loginBackoffMaxMs + 1000);
    expect((await authenticate(ANN, ANN_PASSWORD)).status).toBe(200);
  });

  it('refuses users who sign in with SSO only, with the console’s message, once the password is right', async () => {
    await configureSso(h, await TestIdp.create());
    const enforce = await h.call('POST', `/v3/user/enforce_sso/${ANN}`, {
      json: { sso_setting: { user_email: ANN, identifier: 'ann-1' } },
    });
    expect(enforce.status).toBe(200);
    expect(await message(await authenticate(ANN, 'not the password'), 401)).toMatch(/incorrect/);
    const refused = await message(await authenticate(ANN, ANN_PASSWORD), 403);
    expect(refused).toBe('Your account signs in with single sign-on only. Use "Sign in with SSO" instead.');
    expect(
      await message(
        await h.call('POST', `/v3/user/password/change/ann`, { form: { password: 'another long one' } }),
        403,
      ),
    ).toMatch(/single sign-on only.*disable_sso/);
  });
});

describe('POST /v3/user/password/change (your own, td password:change)', () => {
  const change = (old_password: string, password: string, key = annKey) =>
    h.call('POST', '/v3/user/password/change', { key, form: { old_password, password } });

  it('needs the current password, applies the password rule, and ends your console sessions', async () => {
    const cookie = await signIn(h, ANN, ANN_PASSWORD);
    expect(await message(await change('not it', 'a brand new secret'), 400)).toBe('The current password is incorrect.');
    expect(await message(await change(ANN_PASSWORD, 'password123'), 400)).toMatch(/common/i);
    expect(await message(await change(ANN_PASSWORD, 'short'), 400)).toMatch(/at least 8 characters/);
    expect(await alive(cookie)).toBe(true);
    const res = await change(ANN_PASSWORD, 'a brand new secret');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email: string }).email).toBe(ANN);
    expect(await alive(cookie)).toBe(false);
    expect((await authenticate(ANN, ANN_PASSWORD)).status).toBe(401);
    expect((await authenticate(ANN, 'a brand new secret')).status).toBe(200);
    // The key the change was made with keeps working (decision 0005).
    expect((await h.call('GET', '/v3/user/show', { key: annKey })).status).toBe(200);
  });

  it('throttles wrong current passwords like sign-ins, so a stolen key cannot guess the password', async () => {
    for (let i = 0; i < limits.loginAttempts; i++) await message(await change(`wrong ${i}`, 'a brand new secret'), 400);
    expect(await message(await change(ANN_PASSWORD, 'a brand new secret'), 429)).toMatch(/Try again/);
  });
});

describe('POST /v3/user/password/change/:name (td user:password:change)', () => {
  const set = (name: string, password: string, key?: string) =>
    h.call('POST', `/v3/user/password/change/${encodeURIComponent(name)}`, {
      ...(key ? { key } : {}),
      form: { password },
    });

  it('lets an administrator set a user’s password, ending that user’s console sessions', async () => {
    const cookie = await signIn(h, ANN, ANN_PASSWORD);
    const res = await set('ann', 'set by the admin');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('ann');
    expect(await alive(cookie)).toBe(false);
    expect((await authenticate(ANN, 'set by the admin')).status).toBe(200);
    expect((await audit('user.password_change')).map((a) => [a.actor, a.target])).toEqual([[h.admin.email, ANN]]);
  });

  it('refuses others, the owner’s password, unknown users and weak passwords', async () => {
    expect(await message(await set(h.admin.email, 'another long one', annKey), 403)).toMatch(/Only an administrator/);
    expect(await message(await set('ann', 'another long one', annKey), 403)).toMatch(
      /POST \/v3\/user\/password\/change/,
    );
    const promote = await h.call('POST', '/v3/user/add/bob', {
      form: { email: 'bob@first.test', password: 'bobs long password', administrator: 'true' },
    });
    expect(promote.status).toBe(200);
    const bobKey = ((await (await h.call('POST', '/v3/user/apikey/add/bob')).json()) as { apikey: string }).apikey;
    expect(await message(await set(h.admin.email, 'another long one', bobKey), 403)).toMatch(/account owner/);
    expect(await message(await set('nobody', 'another long one'), 404)).toBeTruthy();
    expect(await message(await set('ann', '12345678'), 400)).toMatch(/common/i);
    expect((await authenticate(h.admin.email, PASSWORD)).status).toBe(200);
  });
});

describe('POST /v3/user/email/change/:name', () => {
  const move = (name: string, email: string, key?: string) =>
    h.call('POST', `/v3/user/email/change/${encodeURIComponent(name)}`, { ...(key ? { key } : {}), form: { email } });

  it('changes the sign-in address for the user or an administrator, and keeps addresses unique in the account', async () => {
    const res = await move('ann', 'ann.new@first.test', annKey);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { email: string }).email).toBe('ann.new@first.test');
    expect((await authenticate('ann.new@first.test', ANN_PASSWORD)).status).toBe(200);
    expect((await authenticate(ANN, ANN_PASSWORD)).status).toBe(401);
    expect((await move('ann.new@first.test', ANN)).status).toBe(200);
    expect(await message(await move('ann', h.admin.email), 409)).toContain('already exists');
    expect(await message(await move('ann', 'not an address'), 400)).toMatch(/valid e-mail/);
    // Addresses are unique per account (decision 0028): one used in another account is free here.
    const other = await h.newAccount('Second');
    const moved = await move('ann', other.email);
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { email: string }).email).toBe(other.email);
    expect(await message(await move('admin', 'boss@first.test', annKey), 403)).toMatch(/Only an administrator/);
    // Another account's user is not found.
    expect(await message(await move('ann', 'x@first.test', other.masterKey), 404)).toBeTruthy();
  });
});
