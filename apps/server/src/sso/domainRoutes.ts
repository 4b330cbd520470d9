import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { okResponse, ssoDiscoverRequest, ssoDiscoverResponse, ssoDomainList, ssoDomainResponse } from '@svc/contracts';
import { errorResponses, restSecurity, wireBody } from '../accounts';
import { apiKeyAuth, principalOf, requireAdmin } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { readParams } from '../platform/params';
import { claimDomain, listDomains, releaseDomain, ssoAccountForEmail, toWireDomain } from './domains';
import { safeReturnTo } from './serviceProvider';

const domainParam = z.object({
  domain: z
    .string()
    .max(253)
    .openapi({ param: { name: 'domain', in: 'path' }, example: 'example.org' }),
});

function routes(deps: AppDeps) {
  const base = { security: restSecurity, middleware: [apiKeyAuth(deps)], tags: ['Single sign-on'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/account/sso_domains',
      summary: 'The e-mail domains the account claims for SSO (administrators)',
      responses: { 200: json(ssoDomainList, 'The claimed domains'), ...errorResponses(401, 403) },
    }),
    claim: createRoute({
      ...base,
      method: 'post',
      path: '/v3/account/sso_domains',
      summary: 'Claim the domain of your own e-mail address, so its people sign in with the account’s SSO',
      request: { body: wireBody(z.object({ domain: z.string() }), '{domain: "example.org"}') },
      responses: {
        200: json(ssoDomainResponse, 'The claim (also when the account already had it)'),
        ...errorResponses(400, 401, 403, 409, 415),
      },
    }),
    release: createRoute({
      ...base,
      method: 'delete',
      path: '/v3/account/sso_domains/{domain}',
      summary: 'Release a claimed domain',
      request: { params: domainParam },
      responses: { 200: json(okResponse, 'Released'), ...errorResponses(401, 403, 404) },
    }),
    discover: createRoute({
      method: 'post',
      path: '/console-api/sso/discover',
      tags: ['Console session'],
      summary: 'Where an e-mail address signs in with SSO: the start URL, or null (also for unknown domains)',
      request: { body: { required: true, content: { 'application/json': { schema: ssoDiscoverRequest } } } },
      responses: { 200: json(ssoDiscoverResponse, 'The SSO start URL or null'), ...errorResponses(400) },
    }),
  };
}

/** Claimed SSO domains (`/v3/account/sso_domains`) and the console's sign-in by e-mail domain. */
export function ssoDomainRoutes(deps: AppDeps) {
  const r = routes(deps);
  const { db } = deps.storage;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      return c.json({ sso_domains: (await listDomains(db, p.accountId)).map(toWireDomain) }, 200);
    })
    .openapi(r.claim, async (c) => {
      const p = principalOf(c);
      const { domain } = await readParams(c);
      if (typeof domain !== 'string') throw badRequest('Send the domain to claim as {"domain": "example.org"}.');
      return c.json({ sso_domain: toWireDomain(await claimDomain(deps, p, domain)) }, 200);
    })
    .openapi(r.release, async (c) => {
      await releaseDomain(deps, principalOf(c), c.req.valid('param').domain);
      return c.json({}, 200);
    })
    .openapi(r.discover, async (c) => {
      const { email, returnTo } = c.req.valid('json');
      const account = await ssoAccountForEmail(db, email);
      if (account === null) return c.json({ url: null }, 200);
      const q = new URLSearchParams({ account: String(account), return_to: safeReturnTo(returnTo) });
      return c.json({ url: `/sso/saml/login?${q}` }, 200);
    });
}
