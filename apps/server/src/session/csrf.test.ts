import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/harness';
import { consoleCall, PASSWORD, signIn } from './testClient';

describe('console request guard', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const message = async (res: Response) => ((await res.json()) as { message: string }).message;

  it('refuses an unsafe console request without the console header', async () => {
    const res = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: h.admin.email, password: PASSWORD },
      noConsoleHeader: true,
    });
    expect(res.status).toBe(403);
    expect(await message(res)).toBe('Console requests that change something must carry the header "x-svc-console: 1".');
  });

  it('refuses a console header with another value', async () => {
    const cookie = await signIn(h);
    const res = await consoleCall(h, 'POST', '/console-api/logout', {
      cookie,
      noConsoleHeader: true,
      headers: { 'x-svc-console': 'yes' },
    });
    expect(res.status).toBe(403);
    expect((await consoleCall(h, 'GET', '/console-api/me', { cookie })).status).toBe(200);
  });

  it('refuses a form-encoded or text body', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await consoleCall(h, 'POST', '/console-api/login', {
        json: { email: h.admin.email, password: PASSWORD },
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(403);
      expect(await message(res)).toContain('application/json');
    }
  });

  it('refuses a body sent without a content type', async () => {
    const res = await h.app.request('/console-api/login', {
      method: 'POST',
      headers: { 'x-svc-console': '1' },
      body: new Blob([JSON.stringify({ email: h.admin.email, password: PASSWORD })]),
    });
    expect(res.status).toBe(403);
  });

  it('guards DELETE as well, and lets a bodiless request with the header through', async () => {
    const cookie = await signIn(h);
    const created = await consoleCall(h, 'POST', '/console-api/api-keys', {
      cookie,
      json: { type: 'master', name: 'Nightly export' },
    });
    const { apiKey } = (await created.json()) as { apiKey: { id: number } };
    const bare = await consoleCall(h, 'DELETE', `/console-api/api-keys/${apiKey.id}`, {
      cookie,
      noConsoleHeader: true,
    });
    expect(bare.status).toBe(403);
    const guarded = await consoleCall(h, 'DELETE', `/console-api/api-keys/${apiKey.id}`, { cookie });
    expect(guarded.status).toBe(200);
  });

  it('sends no CORS headers, not even to a preflight', async () => {
    const preflight = await h.app.request('/console-api/login', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-svc-console',
      },
    });
    const login = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: h.admin.email, password: PASSWORD },
      headers: { origin: 'https://evil.example' },
    });
    for (const res of [preflight, login]) {
      const cors = [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
      expect(cors).toEqual([]);
    }
  });
});

describe('a console session on the REST routes', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('acts as the signed-in user on GET without a key', async () => {
    const cookie = await signIn(h);
    const res = await consoleCall(h, 'GET', '/v3/user/show', { cookie, noConsoleHeader: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: h.admin.email });
    const validated = await consoleCall(h, 'GET', '/v3/user/apikey/validate', { cookie });
    expect(await validated.json()).toMatchObject({ key_type: 'session', user_id: h.admin.userId });
  });

  it('acts on unsafe routes only with the console header and JSON', async () => {
    const cookie = await signIn(h);
    const body = { email: 'ann@first.test', password: 'long enough pw' };
    const bare = await consoleCall(h, 'POST', '/v3/user/add/ann', { cookie, json: body, noConsoleHeader: true });
    expect(bare.status).toBe(401);
    const form = await h.app.request('/v3/user/add/ann', {
      method: 'POST',
      headers: { cookie, 'x-svc-console': '1', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    expect(form.status).toBe(401);
    const guarded = await consoleCall(h, 'POST', '/v3/user/add/ann', { cookie, json: body });
    expect(guarded.status).toBe(200);
  });

  it('gives way to an Authorization header when one is sent', async () => {
    const cookie = await signIn(h);
    const res = await consoleCall(h, 'GET', '/v3/user/show', { cookie, headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(401);
  });

  it('stops working once the user signs out', async () => {
    const cookie = await signIn(h);
    await consoleCall(h, 'POST', '/console-api/logout', { cookie });
    expect((await consoleCall(h, 'GET', '/v3/user/show', { cookie })).status).toBe(401);
  });
});
