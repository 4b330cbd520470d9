import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { many, sql } from '../platform/storage';
import { configureSso, lastAudit, postToAcs, startLogin } from '../sso/testing/ssoFlow';
import { TestIdp } from '../sso/testing/testIdp';
import { consoleCall, sessionCookieFrom, signIn } from '../testing/consoleClient';
import { createHarness, type Harness } from '../testing/harness';
import { linkIn, SmtpSink } from './testing/smtpSink';

/** Invitations (decision 0044): an administrator invites an address with a role; the invitee joins once. */
interface Answer {
  link?: string;
  emailed?: boolean;
  emailProblem?: string;
  message?: string;
  invitation?: { id: number; email: string; state: string; administrator: boolean; emailedAt: string | null };
  invitations?: { id: number; email: string; state: string }[];
  user?: { email: string; name: string; administrator: boolean };
  ssoUrl?: string;
  email?: string;
  accountName?: string;
  ssoAvailable?: boolean;
  kind?: string;
}

let h: Harness;
let cookie: string;
const body = async (res: Response) => (await res.json()) as Answer;
const token = (link: string) => link.split('#')[1] as string;
const invite = (json: unknown, as = cookie) => consoleCall(h, 'POST', '/console-api/invitations', { cookie: as, json });
const inspect = (t: string) => consoleCall(h, 'POST', '/console-api/links/inspect', { json: { token: t } });
const accept = (json: unknown) => consoleCall(h, 'POST', '/console-api/invitations/accept', { json });
const JOIN_PASSWORD = 'a new long password';

async function invited(email = 'new.person@elsewhere.test', administrator = false) {
  const res = await invite({ email, administrator });
  expect(res.status).toBe(200);
  return body(res);
}

afterEach(() => h.close());

describe('invitations', () => {
  beforeEach(async () => {
    h = await createHarness();
    cookie = await signIn(h);
  });

  it('invites with a role, shows the link, and the invitee joins once with a name and password', async () => {
    const sent = await invited('new.person@elsewhere.test', true);
    expect(sent.emailed).toBe(false);
    expect(sent.link).toMatch(/^http:\/\/localhost\/join#[A-Za-z0-9_-]{43}$/);
    expect(sent.invitation).toMatchObject({
      email: 'new.person@elsewhere.test',
      administrator: true,
      state: 'pending',
    });
    expect(await lastAudit(h)).toMatchObject({ action: 'invitation.create', target: 'new.person@elsewhere.test' });
    const list = await body(await consoleCall(h, 'GET', '/console-api/invitations', { cookie }));
    expect(list.invitations?.map((i) => i.email)).toEqual(['new.person@elsewhere.test']);

    const t = token(sent.link as string);
    const info = await inspect(t);
    expect(info.status).toBe(200);
    expect(await body(info)).toMatchObject({
      kind: 'invitation',
      email: 'new.person@elsewhere.test',
      accountName: 'First',
      ssoAvailable: false,
    });

    const joined = await accept({ token: t, name: 'New Person', password: JOIN_PASSWORD });
    expect(joined.status).toBe(200);
    expect((await body(joined)).user).toMatchObject({ email: 'new.person@elsewhere.test', administrator: true });
    const session = sessionCookieFrom(joined);
    const me = await body(await consoleCall(h, 'GET', '/console-api/me', { cookie: session }));
    expect(me.user).toMatchObject({ name: 'New Person', email: 'new.person@elsewhere.test' });
    expect(await lastAudit(h)).toMatchObject({ action: 'invitation.accept', target: 'new.person@elsewhere.test' });
    // The password works for sign-in from now on.
    await signIn(h, 'new.person@elsewhere.test', JOIN_PASSWORD);

    // Once: the link is spent, and the invitation is no longer open.
    const again = await accept({ token: t, name: 'Someone Else', password: JOIN_PASSWORD });
    expect(again.status).toBe(410);
    expect((await body(again)).message).toContain('no longer works');
    expect((await inspect(t)).status).toBe(410);
    expect((await body(await consoleCall(h, 'GET', '/console-api/invitations', { cookie }))).invitations).toEqual([]);
  });

  it('lets a link expire after seven days, and shows the invitation as expired', async () => {
    const sent = await invited();
    h.clock.advance(7 * 24 * 60 * 60 * 1000);
    cookie = await signIn(h);
    expect((await inspect(token(sent.link as string))).status).toBe(410);
    const res = await accept({ token: token(sent.link as string), name: 'Late', password: JOIN_PASSWORD });
    expect(res.status).toBe(410);
    const list = await body(await consoleCall(h, 'GET', '/console-api/invitations', { cookie }));
    expect(list.invitations?.map((i) => i.state)).toEqual(['expired']);
    // Inviting again gives a new link that works; the expired one is replaced.
    const fresh = await invited();
    expect((await inspect(token(fresh.link as string))).status).toBe(200);
    expect((await body(await consoleCall(h, 'GET', '/console-api/invitations', { cookie }))).invitations).toHaveLength(
      1,
    );
  });

  it('revokes an invitation, audited; only administrators of the account may', async () => {
    const sent = await invited();
    const id = sent.invitation?.id as number;
    const other = await h.newAccount('Other');
    const otherCookie = await signIn(h, other.email);
    expect((await consoleCall(h, 'DELETE', `/console-api/invitations/${id}`, { cookie: otherCookie })).status).toBe(
      404,
    );
    await h.call('POST', '/v3/user/add/member', { form: { email: 'member@first.test', password: JOIN_PASSWORD } });
    const member = await signIn(h, 'member@first.test', JOIN_PASSWORD);
    expect((await consoleCall(h, 'DELETE', `/console-api/invitations/${id}`, { cookie: member })).status).toBe(403);
    expect((await consoleCall(h, 'GET', '/console-api/invitations', { cookie: member })).status).toBe(403);
    expect((await invite({ email: 'x@y.test' }, member)).status).toBe(403);

    expect((await consoleCall(h, 'DELETE', `/console-api/invitations/${id}`, { cookie })).status).toBe(200);
    expect(await lastAudit(h)).toMatchObject({ action: 'invitation.revoke', target: 'new.person@elsewhere.test' });
    expect((await inspect(token(sent.link as string))).status).toBe(410);
    const twice = await consoleCall(h, 'DELETE', `/console-api/invitations/${id}`, { cookie });
    expect(twice.status).toBe(409);
    expect((await body(twice)).message).toContain('already revoked');
  });

  it('refuses bad input with a message, and adds nobody', async () => {
    const bad = await invite({ email: 'not an address' });
    expect(bad.status).toBe(400);
    expect((await body(bad)).message).toContain('valid e-mail address');
    expect((await invite({ email: `${'a'.repeat(250)}@x.test` })).status).toBe(400);
    const existing = await invite({ email: h.admin.email });
    expect(existing.status).toBe(409);
    expect((await body(existing)).message).toContain('already a user');

    const t = token((await invited()).link as string);
    const neither = await accept({ token: t, name: 'A' });
    expect(neither.status).toBe(400);
    expect((await body(neither)).message).toContain('Choose a password, or join with single sign-on');
    const common = await accept({ token: t, name: 'A', password: 'password123' });
    expect(common.status).toBe(400);
    expect((await body(common)).message).toContain('too common');
    expect((await accept({ token: t, name: 'x'.repeat(101), password: JOIN_PASSWORD })).status).toBe(400);
    expect((await accept({ token: 'short', name: 'A', password: JOIN_PASSWORD })).status).toBe(400);
    const admin = await body(await consoleCall(h, 'GET', '/console-api/me', { cookie }));
    const taken = await accept({ token: t, name: admin.user?.name, password: JOIN_PASSWORD });
    expect(taken.status).toBe(409);
    expect((await body(taken)).message).toContain('Choose another name');
    const noSso = await accept({ token: t, name: 'A', sso: true });
    expect(noSso.status).toBe(409);
    expect((await body(noSso)).message).toContain('does not sign in with single sign-on');
    // The refusals left the link working and added no user.
    expect((await inspect(t)).status).toBe(200);
    const users = await many(h.deps.storage.db, sql`SELECT id FROM users WHERE account_id = ${h.admin.accountId}`);
    expect(users).toHaveLength(1);
  });

  it('stores only a hash of the token and never logs it', async () => {
    const sent = await invited();
    const t = token(sent.link as string);
    await inspect(t);
    await accept({ token: t, name: 'New Person', password: JOIN_PASSWORD });
    const rows = await many<Record<string, unknown>>(h.deps.storage.db, sql`SELECT * FROM one_time_links`);
    const stored = JSON.stringify(
      rows.map((r) => Object.values(r).map((v) => (Buffer.isBuffer(v) ? v.toString('base64url') : v))),
    );
    expect(stored).not.toContain(t);
    expect(h.logs.join('\n')).not.toContain(t);
  });

  it('lets the invitee join with the account’s SSO, then sign in through the identity provider', async () => {
    // Assertions carry real timestamps: the server's clock agrees with them (and the session starts then).
    h.clock.set(Date.now());
    cookie = await signIn(h);
    const idp = await TestIdp.create();
    await configureSso(h, idp);
    const t = token((await invited('sso.person@first.test')).link as string);
    expect((await body(await inspect(t))).ssoAvailable).toBe(true);
    const res = await accept({ token: t, name: 'SSO Person', sso: true });
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.ssoUrl).toBe(`/sso/saml/login?account=${h.admin.accountId}&return_to=%2Foverview`);
    expect(sessionCookieFrom(res)).toBeNull();
    // The identity provider asserts the invited address; that signs the new user in.
    const req = await startLogin(h, '/overview');
    const response = await idp.respond({
      nameId: 'sso.person@first.test',
      inResponseTo: req.id,
      acsUrl: req.acsUrl,
      audience: req.issuer,
    });
    const signedIn = await postToAcs(h, req.acsUrl, response, req.relayState);
    expect(signedIn.status).toBe(303);
    const me = await body(await consoleCall(h, 'GET', '/console-api/me', { cookie: sessionCookieFrom(signedIn) }));
    expect(me.user).toMatchObject({ email: 'sso.person@first.test', name: 'SSO Person' });
    // SSO only: no password sign-in.
    const login = await consoleCall(h, 'POST', '/console-api/login', {
      json: { email: 'sso.person@first.test', password: JOIN_PASSWORD },
    });
    expect(login.status).toBe(401);
  });
});

describe('invitations by e-mail', () => {
  let sink: SmtpSink;
  afterEach(() => sink.close());

  it('mails the link through the configured SMTP server, and the mailed link joins', async () => {
    sink = await SmtpSink.start();
    h = await createHarness({ smtp: sink.settings, publicUrl: 'https://cdp.example.test' });
    cookie = await signIn(h);
    const sent = await invited('mailed@elsewhere.test');
    expect(sent.emailed).toBe(true);
    expect(sent.invitation?.emailedAt).not.toBeNull();
    const mail = await sink.next();
    expect(mail.to).toEqual(['mailed@elsewhere.test']);
    expect(mail.subject).toBe('You are invited to First');
    expect(mail.text).toContain(`${h.admin.email} invited you to join the account "First" as a member.`);
    expect(linkIn(mail)).toBe(sent.link);
    expect(sent.link).toMatch(/^https:\/\/cdp\.example\.test\/join#/);
    const joined = await accept({ token: token(linkIn(mail)), name: 'Mailed', password: JOIN_PASSWORD });
    expect(joined.status).toBe(200);
    expect(h.logs.join('\n')).not.toContain(token(linkIn(mail)));
  });

  it('still shows the link when the SMTP server refuses the message, and says why', async () => {
    sink = await SmtpSink.start({ refuse: true });
    h = await createHarness({ smtp: sink.settings });
    cookie = await signIn(h);
    const sent = await invited('nobody@elsewhere.test');
    expect(sent.emailed).toBe(false);
    expect(sent.emailProblem).toContain('could not be sent');
    expect(sent.emailProblem).toContain('Copy the link instead');
    expect((await inspect(token(sent.link as string))).status).toBe(200);
  });
});
