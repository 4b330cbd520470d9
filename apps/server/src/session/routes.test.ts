import { SESSION_COOKIE } from '@svc/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limits } from '../platform/limits';
import { many, sql } from '../platform/storage';
import { consoleCall, PASSWORD, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';

describe('console sessions', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const login = (email: string, password: string, address?: string) =>
    consoleCall(h, 'POST', '/console-api/login', { json: { email, password }, ...(address ? { address } : {}) });
  const me = (cookie: string | null) => consoleCall(h, 'GET', '/console-api/me', { cookie });

  describe('POST /console-api/login', () => {
    it('signs in and sets a host-only, HttpOnly, Secure, SameSite=Strict cookie', async () => {
      const res = await login(h.admin.email, PASSWORD);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        user: {
          id: h.admin.userId,
          name: 'admin',
          email: h.admin.email,
          administrator: true,
          accountId: h.admin.accountId,
          accountName: 'First',
        },
      });
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; `));
      expect(cookie).toContain('Path=/');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('SameSite=Strict');
      expect(cookie).not.toMatch(/Domain=/i);
    });

    it('matches the e-mail address without regard to case', async () => {
      expect((await login(h.admin.email.toUpperCase(), PASSWORD)).status).toBe(200);
    });

    it('stores only a hash of the session id', async () => {
      const cookie = await signIn(h);
      const id = cookie.split('=')[1] as string;
      const rows = (await many<{ id_hash: Buffer }>(h.deps.storage.db, sql`SELECT id_hash FROM console_sessions`)).map(
        (r) => ({ hash: Buffer.from(r.id_hash).toString('hex').toUpperCase() }),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.hash).not.toContain(Buffer.from(id).toString('hex').toUpperCase());
      expect(rows[0]?.hash).toHaveLength(64);
    });

    it('gives a new session id at every sign-in and ends the one the browser had', async () => {
      const first = await signIn(h);
      const res = await consoleCall(h, 'POST', '/console-api/login', {
        cookie: first,
        json: { email: h.admin.email, password: PASSWORD },
      });
      const second = sessionCookieFrom(res);
      expect(second).not.toBeNull();
      expect(second).not.toBe(first);
      expect((await me(first)).status).toBe(401);
      expect((await me(second)).status).toBe(200);
    });

    it('answers a wrong password and an unknown e-mail with the same 401', async () => {
      const wrongPassword = await login(h.admin.email, 'not the password');
      const unknownEmail = await login('nobody@first.test', PASSWORD);
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      const body = await wrongPassword.json();
      expect(body).toEqual(await unknownEmail.json());
      expect(body).toMatchObject({ message: 'The e-mail address or password is incorrect.' });
      expect(wrongPassword.headers.get('set-cookie')).toBeNull();
    });

    it('asks for the missing fields in a 400', async () => {
      const res = await consoleCall(h, 'POST', '/console-api/login', { json: { email: h.admin.email } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('"password"');
    });

    it('cannot be used to lock a user out: the right password from a clean address works after the lock-out attempt', async () => {
      // The attack: many wrong passwords for the victim's e-mail, from one address and from several.
      for (let i = 0; i < limits.loginAttempts * 3; i++) await login(h.admin.email, 'wrong password', '192.0.2.66');
      for (let i = 0; i < limits.loginAttempts; i++) await login(h.admin.email, 'wrong password', `10.0.0.${i}`);
      expect((await login(h.admin.email, 'wrong password', '192.0.2.66')).status).toBe(429);
      // The owner, from an address without failures, signs in at once.
      expect((await login(h.admin.email, PASSWORD, '198.51.100.20')).status).toBe(200);
    });

    it(`backs off an (e-mail, address) pair after ${limits.loginAttempts} failures, longer each time`, async () => {
      const ADDRESS = '192.0.2.50';
      for (let i = 0; i < limits.loginAttempts; i++) {
        expect((await login(h.admin.email, 'wrong password', ADDRESS)).status).toBe(401);
      }
      const limited = await login(h.admin.email, PASSWORD, ADDRESS);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe(String(limits.loginBackoffBaseMs / 1000));
      expect(await limited.json()).toMatchObject({
        status_code: 429,
        message: 'Too many failed sign-in attempts. Try again in 1 minute.',
      });
      h.clock.advance(limits.loginBackoffBaseMs);
      expect((await login(h.admin.email, 'wrong password', ADDRESS)).status).toBe(401);
      // One more failure doubles the wait.
      expect((await login(h.admin.email, PASSWORD, ADDRESS)).headers.get('retry-after')).toBe(
        String((2 * limits.loginBackoffBaseMs) / 1000),
      );
      h.clock.advance(2 * limits.loginBackoffBaseMs);
      expect((await login(h.admin.email, PASSWORD, ADDRESS)).status).toBe(200);
    });

    it('tells the owner: an audit entry and a notice at the next sign-in', async () => {
      for (let i = 0; i < limits.loginAttempts; i++) await login(h.admin.email, 'wrong password', '192.0.2.77');
      const audit = await many(
        h.deps.storage.db,
        sql`SELECT actor, action, target, outcome, reason FROM audit_events WHERE action = 'user.login_throttled'
             ORDER BY id`,
      );
      expect(audit).toEqual([
        {
          actor: '192.0.2.77',
          action: 'user.login_throttled',
          target: h.admin.email,
          outcome: 'failure',
          reason: 'too_many_failed_passwords',
        },
      ]);
      const res = await login(h.admin.email, PASSWORD, '198.51.100.21');
      const body = (await res.json()) as { loginNotices?: { address: string; failures: number }[] };
      expect(body.loginNotices).toEqual([
        { at: expect.any(String), address: '192.0.2.77', failures: limits.loginAttempts },
      ]);
      // Shown once.
      const again = (await (await login(h.admin.email, PASSWORD, '198.51.100.21')).json()) as object;
      expect(again).not.toHaveProperty('loginNotices');
    });

    it(`pauses a client address after ${limits.loginAddressAttempts} failures on any e-mails`, async () => {
      for (let i = 0; i < limits.loginAddressAttempts; i++) {
        expect((await login(`guess${i}@first.test`, 'wrong password', '192.0.2.7')).status).toBe(401);
      }
      expect((await login(h.admin.email, PASSWORD, '192.0.2.7')).status).toBe(429);
      expect((await login(h.admin.email, PASSWORD, '192.0.2.8')).status).toBe(200);
    });

    it('does not trust X-Forwarded-For to pick the address', async () => {
      for (let i = 0; i < limits.loginAddressAttempts; i++) {
        const res = await consoleCall(h, 'POST', '/console-api/login', {
          json: { email: `guess${i}@first.test`, password: 'wrong password' },
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
        });
        expect(res.status).toBe(401);
      }
      const res = await consoleCall(h, 'POST', '/console-api/login', {
        json: { email: h.admin.email, password: PASSWORD },
        headers: { 'x-forwarded-for': '203.0.113.99' },
      });
      expect(res.status).toBe(429);
    });

    it('forgives earlier failures after a successful sign-in', async () => {
      for (let i = 0; i < limits.loginAttempts - 1; i++) await login(h.admin.email, 'wrong password');
      expect((await login(h.admin.email, PASSWORD)).status).toBe(200);
      for (let i = 0; i < limits.loginAttempts - 1; i++) await login(h.admin.email, 'wrong password');
      expect((await login(h.admin.email, PASSWORD)).status).toBe(200);
    });
  });

  describe('GET /console-api/me', () => {
    it('answers the signed-in user', async () => {
      const res = await me(await signIn(h));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ user: { email: h.admin.email, accountName: 'First' } });
    });

    it('answers 401 without a session, with a forged one, or with an API key', async () => {
      expect((await me(null)).status).toBe(401);
      expect((await me(`${SESSION_COOKIE}=${'A'.repeat(43)}`)).status).toBe(401);
      const withKey = await consoleCall(h, 'GET', '/console-api/me', {
        headers: { authorization: `SVC1 ${h.admin.masterKey}` },
      });
      expect(withKey.status).toBe(401);
      expect(((await withKey.json()) as { message: string }).message).toContain('Sign in again');
    });

    it('ends a session left idle for the configured time, not one in use', async () => {
      const cookie = await signIn(h);
      const idle = h.deps.config.sessionIdleMs;
      h.clock.advance(idle - 1000);
      expect((await me(cookie)).status).toBe(200);
      h.clock.advance(idle - 1000);
      expect((await me(cookie)).status).toBe(200);
      h.clock.advance(idle);
      expect((await me(cookie)).status).toBe(401);
    });
  });

  describe('POST /console-api/logout', () => {
    it('ends the session and clears the cookie', async () => {
      const cookie = await signIn(h);
      const res = await consoleCall(h, 'POST', '/console-api/logout', { cookie });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=; Max-Age=0; `));
      expect((await me(cookie)).status).toBe(401);
    });

    it('answers {} when nobody is signed in', async () => {
      const res = await consoleCall(h, 'POST', '/console-api/logout');
      expect(res.status).toBe(200);
    });
  });

  describe('POST /console-api/me/password', () => {
    const change = (cookie: string, currentPassword: string, newPassword: string) =>
      consoleCall(h, 'POST', '/console-api/me/password', { cookie, json: { currentPassword, newPassword } });

    it('changes the password, ends the user’s other sessions and keeps this browser signed in', async () => {
      const here = await signIn(h);
      const elsewhere = await signIn(h);
      const res = await change(here, PASSWORD, 'a brand new password');
      expect(res.status).toBe(200);
      const renewed = sessionCookieFrom(res);
      expect(renewed).not.toBeNull();
      expect((await me(elsewhere)).status).toBe(401);
      expect((await me(here)).status).toBe(401);
      expect((await me(renewed)).status).toBe(200);
      expect((await login(h.admin.email, PASSWORD)).status).toBe(401);
      expect((await login(h.admin.email, 'a brand new password')).status).toBe(200);
    });

    it('refuses a wrong current password or a short new one with 400', async () => {
      const cookie = await signIn(h);
      const wrong = await change(cookie, 'not my password', 'a brand new password');
      expect(wrong.status).toBe(400);
      expect(((await wrong.json()) as { message: string }).message).toBe('The current password is incorrect.');
      const short = await change(cookie, PASSWORD, 'short');
      expect(short.status).toBe(400);
      expect(((await short.json()) as { message: string }).message).toContain('at least 8 characters');
      const common = await change(cookie, PASSWORD, 'Password123');
      expect(common.status).toBe(400);
      expect(((await common.json()) as { message: string }).message).toContain('too common');
      expect((await login(h.admin.email, PASSWORD)).status).toBe(200);
    });
  });
});
