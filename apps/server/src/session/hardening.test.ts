import { afterEach, describe, expect, it } from 'vitest';
import { run, sql } from '../platform/storage';
import { consoleCall, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { DEFAULT_SESSION_MAX_MS } from './sessions';

describe('console responses and sessions', () => {
  let h: Harness;
  afterEach(() => h.close());
  const me = (cookie: string | null) => consoleCall(h, 'GET', '/console-api/me', { cookie });

  it('answers every /console-api and authenticated request with no-store and a complete CSP', async () => {
    h = await createHarness();
    const cookie = await signIn(h);
    const answers = [
      await me(cookie),
      await me(null),
      await consoleCall(h, 'POST', '/console-api/login', { json: { email: 'x@y.test', password: 'wrong password' } }),
      await h.call('GET', '/v3/database/list'),
      await h.call('GET', '/v3/database/list', { key: `1/${'0'.repeat(40)}` }),
    ];
    for (const res of answers) {
      expect(res.headers.get('cache-control'), res.url).toBe('no-store');
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "default-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
      ]) {
        expect(csp).toContain(directive);
      }
    }
  });

  it('refuses a session older than the absolute lifetime, however busy it was', async () => {
    h = await createHarness();
    const cookie = await signIn(h);
    const step = 30 * 60 * 1000;
    for (let t = step; t < DEFAULT_SESSION_MAX_MS; t += step) {
      h.clock.advance(step);
      expect((await me(cookie)).status).toBe(200);
    }
    h.clock.advance(step);
    expect((await me(cookie)).status).toBe(401);
    // Signing in again works.
    expect((await me(await signIn(h))).status).toBe(200);
  });

  it('takes the absolute lifetime from the configuration', async () => {
    h = await createHarness({ sessionMaxMs: 2 * 60 * 60 * 1000 });
    const cookie = await signIn(h);
    h.clock.advance(50 * 60 * 1000);
    expect((await me(cookie)).status).toBe(200);
    h.clock.advance(50 * 60 * 1000);
    expect((await me(cookie)).status).toBe(200);
    h.clock.advance(25 * 60 * 1000);
    expect((await me(cookie)).status).toBe(401);
  });

  it('ends sessions whose user gained or lost a privilege since they began', async () => {
    h = await createHarness();
    const cookie = await signIn(h);
    await run(h.deps.storage.db, sql`UPDATE users SET administrator = 0 WHERE id = ${h.admin.userId}`);
    expect((await me(cookie)).status).toBe(401);
    const fresh = await signIn(h);
    expect(((await (await me(fresh)).json()) as { user: { administrator: boolean } }).user.administrator).toBe(false);
  });
});
