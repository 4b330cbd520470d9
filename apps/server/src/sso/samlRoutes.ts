import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { accountExists } from '../accounts';
import { recordAudit } from '../audit';
import { publicBase } from '../platform/config';
import type { AppDeps, AppEnv } from '../platform/context';
import { createSession, findLiveSession, readSessionCookie, revokeSession, setSessionCookie } from '../session';
import { type AcsSuccess, consumeResponse, MAX_SAML_RESPONSE_BYTES, Refusal } from './acs';
import { messagePage } from './messagePage';
import { metadataXml, safeReturnTo, serviceProvider, startRequest } from './serviceProvider';
import { findSetting, recordTest } from './settings';

const accountQuery = z.object({
  account: z.coerce
    .number({ error: 'Add ?account=<account id> to the address.' })
    .int()
    .positive()
    .openapi({ param: { name: 'account', in: 'query' }, example: 1 }),
});
const redirect = { description: 'A redirect (to the identity provider, or back into the console)' };
const page = { description: 'A page with a plain message', content: { 'text/html': { schema: z.string() } } };

const r = {
  metadata: createRoute({
    method: 'get',
    path: '/sso/saml/metadata',
    tags: ['Single sign-on (browser)'],
    summary: 'SAML service-provider metadata of an account (public; give its URL to the identity provider)',
    request: { query: accountQuery },
    responses: {
      200: { description: 'SAML metadata', content: { 'application/samlmetadata+xml': { schema: z.string() } } },
      404: page,
    },
  }),
  login: createRoute({
    method: 'get',
    path: '/sso/saml/login',
    tags: ['Single sign-on (browser)'],
    summary: 'Start an SP-initiated sign-in: redirects to the identity provider with a request and a RelayState',
    description:
      'Started by account, never by e-mail, so the answer cannot tell whether an address exists or uses SSO ' +
      '(decision 0028). An account without SSO and an account that does not exist get the same page.',
    request: {
      query: accountQuery.extend({
        return_to: z.string().max(512).optional().openapi({ description: 'A relative path to open afterwards' }),
      }),
    },
    responses: { 302: redirect, 400: page },
  }),
  test: createRoute({
    method: 'get',
    path: '/sso/saml/test',
    tags: ['Single sign-on (browser)'],
    summary: 'Test SSO (administrators, signed in to the console): a round trip that creates no session',
    responses: { 302: redirect, 401: page, 403: page, 409: page },
  }),
  acs: createRoute({
    method: 'post',
    path: '/sso/saml/acs',
    tags: ['Single sign-on (browser)'],
    summary: 'Assertion consumer: the identity provider posts SAMLResponse and RelayState here',
    request: { query: accountQuery },
    responses: { 303: redirect, 400: page, 403: page, 404: page, 413: page },
  }),
};

/** Browser-facing SAML endpoints. They answer pages and redirects, not JSON: a person is looking at them. */
export function samlRoutes(deps: AppDeps) {
  const origin = (c: Context) => publicBase(deps.config, c.req.url);
  const refuse = async (c: Context, accountId: number, refusal: Refusal, status: 400 | 403 | 413) => {
    const request = refusal.request;
    const test = request?.purpose === 'test';
    await recordAudit(deps, {
      accountId,
      actorUserId: test ? request.actorUserId : null,
      actor: test ? 'Test SSO' : 'identity provider',
      action: test ? 'sso.test' : 'sso.sign_in',
      target: typeof refusal.details.name_id === 'string' ? refusal.details.name_id : null,
      outcome: 'failure',
      reason: refusal.reason,
      details: refusal.details,
    });
    if (test) {
      const d = refusal.details;
      const text = (v: unknown) => (typeof v === 'string' ? v : null);
      const user = text(d.user);
      await recordTest(deps, accountId, {
        outcome: 'failed',
        reason: refusal.reason,
        message: refusal.message,
        name_id: text(d.name_id),
        name_id_format: text(d.name_id_format),
        attributes: (d.attributes as Record<string, string[]> | undefined) ?? {},
        user: user === null ? null : { email: user, name: null, sso_mode: 'disabled' },
      });
      return c.redirect(`/settings/sso?test=failed&reason=${refusal.reason}`, 303);
    }
    return c.html(messagePage('Sign-in refused', refusal.message), status);
  };
  const succeed = async (c: Context, accountId: number, ok: AcsSuccess) => {
    const test = ok.request.purpose === 'test';
    await recordAudit(deps, {
      accountId,
      actorUserId: test ? ok.request.actorUserId : ok.user.id,
      actor: test ? 'Test SSO' : ok.user.email,
      action: test ? 'sso.test' : 'sso.sign_in',
      target: ok.user.email,
      outcome: 'success',
      details: { name_id: ok.nameId },
    });
    if (test) {
      await recordTest(deps, accountId, {
        outcome: 'passed',
        reason: null,
        message: null,
        name_id: ok.nameId,
        name_id_format: ok.nameIdFormat,
        attributes: ok.attributes,
        user: { email: ok.user.email, name: ok.user.name, sso_mode: ok.user.sso_mode },
      });
      return c.redirect('/settings/sso?test=passed', 303);
    }
    const previous = readSessionCookie(c);
    if (previous) await revokeSession(deps, previous);
    setSessionCookie(c, await createSession(deps, ok.user, 'sso'));
    return c.redirect(safeReturnTo(ok.request.returnTo), 303);
  };

  const app = new OpenAPIHono<AppEnv>();
  app.use(
    '/sso/saml/acs',
    bodyLimit({
      // Room for the form encoding of a response at the limit; the response itself is checked again.
      maxSize: MAX_SAML_RESPONSE_BYTES * 2,
      onError: async (c) => {
        const account = Number(c.req.query('account'));
        if (!Number.isSafeInteger(account) || account <= 0 || !(await accountExists(deps.storage.db, account))) {
          return c.html(messagePage('Sign-in refused', 'The sign-in response is too large.'), 413);
        }
        return refuse(c, account, new Refusal('response_too_large'), 413);
      },
    }),
  );
  return app
    .openapi(r.metadata, async (c) => {
      const { account } = c.req.valid('query');
      if (!(await accountExists(deps.storage.db, account)))
        return c.html(messagePage('Not found', 'There is no such account.'), 404);
      c.header('content-type', 'application/samlmetadata+xml; charset=utf-8');
      return c.body(metadataXml(serviceProvider(origin(c), account)), 200);
    })
    .openapi(r.login, async (c) => {
      const { account, return_to } = c.req.valid('query');
      const setting = await findSetting(deps.storage.db, account);
      if (!setting) {
        return c.html(
          messagePage(
            'Single sign-on unavailable',
            'Single sign-on is not set up for this account. Check the account ID with your administrator, or sign in with your password.',
          ),
          400,
        );
      }
      const url = await startRequest(deps, {
        sp: serviceProvider(origin(c), account),
        setting,
        purpose: 'login',
        returnTo: safeReturnTo(return_to),
        actorUserId: null,
      });
      return c.redirect(url, 302);
    })
    .openapi(r.test, async (c) => {
      const id = readSessionCookie(c);
      const session = id ? await findLiveSession(deps, id) : null;
      if (!session) return c.html(messagePage('Not signed in', 'Sign in to the console first.'), 401);
      if (!session.administrator) {
        return c.html(messagePage('Not allowed', 'Only an administrator of the account can test SSO.'), 403);
      }
      const setting = await findSetting(deps.storage.db, session.accountId);
      if (!setting) return c.html(messagePage('No SSO setting', 'Configure single sign-on before testing it.'), 409);
      const url = await startRequest(deps, {
        sp: serviceProvider(origin(c), session.accountId),
        setting,
        purpose: 'test',
        returnTo: '/settings/sso',
        actorUserId: session.userId,
      });
      return c.redirect(url, 302);
    })
    .openapi(r.acs, async (c) => {
      const { account } = c.req.valid('query');
      if (!(await accountExists(deps.storage.db, account))) {
        return c.html(messagePage('Not found', 'There is no such account.'), 404);
      }
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const samlResponse = typeof form.SAMLResponse === 'string' ? form.SAMLResponse : '';
      const relayState = typeof form.RelayState === 'string' ? form.RelayState : '';
      try {
        const ok = await consumeResponse(deps, origin(c), account, samlResponse, relayState);
        return succeed(c, account, ok);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        const status = err.reason === 'response_too_large' ? 413 : err.reason === 'malformed_response' ? 400 : 403;
        return refuse(c, account, err, status);
      }
    });
}
