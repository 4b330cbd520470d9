import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { configureSso, createSsoUser, lastAudit } from '../sso/testing/ssoFlow';
import { TestIdp } from '../sso/testing/testIdp';
import { consoleCall, PASSWORD, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { linkIn, SmtpSink } from './testing/smtpSink';

/** Password reset by e-mail on the invitations' one-time links (decision 0044). */
let h: Harness;
let sink: SmtpSink;
const NEW_PASSWORD = 'a brand new password';
const token = (link: string) => link.split('#')[1] as string;
const ask = (email: string, address = '192.0.2.10') =>
  consoleCall(h, 'POST', '/console-api/password-reset', { json: { email }, address });
const complete = (t: string, password = NEW_PASSWORD) =>
  consoleCall(h, 'POST', '/console-api/password-reset/complete', { json: { token: t, password } });
const links = () => many<{ email: string }>(h.deps.storage.db, sql`SELECT email FROM one_time_links`);

afterEach(async () => {
  await h.close();
  await sink?.close();
});

describe('password reset by e-mail', () => {
  beforeEach(async () => {
    sink = await SmtpSink.start();
    h = await createHarness({ smtp: sink.settings });
  });

  it('mails a one-time link that sets a new password, ends other sessions and signs in', async () => {
    const other = await signIn(h);
    const availability = await consoleCall(h, 'GET', '/console-api/password-reset');
    expect(await availability.json()).toEqual({ emailAvailable: true });
    const res = await ask(h.admin.email);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const mail = await sink.next();
    expect(mail.to).toEqual([h.admin.email]);
    expect(mail.subject).toBe('Reset your password for First');
    expect(await lastAudit(h)).toMatchObject({ action: 'user.password_reset_link', target: h.admin.email });
    const t = token(linkIn(mail));
    expect(linkIn(mail)).toMatch(/\/reset-password#/);
    const info = await consoleCall(h, 'POST', '/console-api/links/inspect', { json: { token: t } });
    expect(await info.json()).toMatchObject({ kind: 'password_reset', email: h.admin.email });

    const done = await complete(t);
    expect(done.status).toBe(200);
    expect(sessionCookieFrom(done)).not.toBeNull();
    expect(await lastAudit(h)).toMatchObject({ action: 'user.password_reset', target: h.admin.email });
    // The session that knew the old password is out; the old password no longer opens the account.
    expect((await consoleCall(h, 'GET', '/console-api/me', { cookie: other })).status).toBe(401);
    const old = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: h.admin.email, password: PASSWORD },
    });
    expect(old.status).toBe(401);
    await signIn(h, h.admin.email, NEW_PASSWORD);
    // Once only.
    const again = await complete(t, 'yet another password');
    expect(again.status).toBe(410);
    expect(((await again.json()) as { message: string }).message).toContain('Ask for a new one on the sign-in page');
  });

  it('answers an unknown address exactly as a known one, and makes no link for it', async () => {
    const unknown = await ask('nobody@nowhere.test');
    const known = await ask(h.admin.email, '192.0.2.11');
    expect([unknown.status, await unknown.text()]).toEqual([known.status, await known.text()]);
    expect((await sink.next()).to).toEqual([h.admin.email]);
    expect((await links()).map((l) => l.email)).toEqual([h.admin.email]);
  });

  it('is throttled like sign-in, per address and e-mail', async () => {
    for (let i = 0; i < 5; i++) expect((await ask(h.admin.email)).status).toBe(200);
    const limited = await ask(h.admin.email);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(((await limited.json()) as { message: string }).message).toContain('Try again in');
    // Unknown addresses are throttled the same way.
    for (let i = 0; i < 5; i++) await ask('nobody@nowhere.test', '192.0.2.20');
    expect((await ask('nobody@nowhere.test', '192.0.2.20')).status).toBe(429);
  });

  it('lets a link expire after an hour, and a newer link replace an older one', async () => {
    await ask(h.admin.email);
    const first = token(linkIn(await sink.next()));
    await ask(h.admin.email);
    const second = token(linkIn(await sink.next()));
    expect((await complete(first)).status).toBe(410);
    h.clock.advance(60 * 60 * 1000);
    expect((await complete(second)).status).toBe(410);
  });

  it('refuses a weak password and a malformed token, leaving the link working', async () => {
    await ask(h.admin.email);
    const t = token(linkIn(await sink.next()));
    const weak = await complete(t, 'short');
    expect(weak.status).toBe(400);
    expect(((await weak.json()) as { message: string }).message).toContain('at least');
    expect((await complete('not-a-token')).status).toBe(400);
    expect((await consoleCall(h, 'POST', '/console-api/password-reset', { json: { email: 42 } })).status).toBe(400);
    expect((await complete(t)).status).toBe(200);
  });

  it('sends nothing to a user who signs in with SSO only', async () => {
    h.clock.set(Date.now());
    await configureSso(h, await TestIdp.create());
    await createSsoUser(h, 'sso.only@first.test', 'sso-only-id');
    expect((await ask('sso.only@first.test')).status).toBe(200);
    expect(await links()).toEqual([]);
  });
});

describe('password reset links made by an administrator', () => {
  beforeEach(async () => {
    sink = await SmtpSink.start();
    h = await createHarness();
  });

  it('shows the link to copy when the server has no SMTP, and mails nothing on request', async () => {
    expect(await (await consoleCall(h, 'GET', '/console-api/password-reset')).json()).toEqual({
      emailAvailable: false,
    });
    expect((await ask(h.admin.email)).status).toBe(200);
    expect(await links()).toEqual([]);

    await h.call('POST', '/v3/user/add/member', { form: { email: 'member@first.test', password: PASSWORD } });
    const admin = await signIn(h);
    const users = (await (await consoleCall(h, 'GET', '/console-api/users', { cookie: admin })).json()) as {
      users: { id: number; email: string }[];
    };
    const memberId = users.users.find((u) => u.email === 'member@first.test')?.id as number;
    const member = await signIn(h, 'member@first.test', PASSWORD);
    const forbidden = await consoleCall(h, 'POST', `/console-api/users/${h.admin.userId}/password-reset`, {
      cookie: member,
    });
    expect(forbidden.status).toBe(403);

    const res = await consoleCall(h, 'POST', `/console-api/users/${memberId}/password-reset`, { cookie: admin });
    expect(res.status).toBe(200);
    const sent = (await res.json()) as { link: string; emailed: boolean };
    expect(sent.emailed).toBe(false);
    expect(await lastAudit(h)).toMatchObject({ action: 'user.password_reset_link', target: 'member@first.test' });
    expect((await complete(token(sent.link))).status).toBe(200);
    await signIn(h, 'member@first.test', NEW_PASSWORD);
    const elsewhere = await h.newAccount('Other');
    const foreign = await consoleCall(h, 'POST', `/console-api/users/${elsewhere.userId}/password-reset`, {
      cookie: admin,
    });
    expect(foreign.status).toBe(404);
  });
});
