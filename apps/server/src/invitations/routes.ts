import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  acceptInvitationRequest,
  acceptInvitationResponse,
  completePasswordResetRequest,
  createdInvitationResponse,
  createInvitationRequest,
  invitationsResponse,
  linkInfoResponse,
  linkRequest,
  meResponse,
  okResponse,
  passwordResetAvailability,
  passwordResetRequest,
  sentLink,
} from '@svc/contracts';
import type { Context } from 'hono';
import { errorResponses, findAccount, idParam, jsonBody, toMe, type UserRow } from '../accounts';
import { principalOf, requireAdmin, requireSession } from '../platform/auth';
import { publicBase } from '../platform/config';
import type { AppDeps, AppEnv } from '../platform/context';
import { jsonResponse as json } from '../platform/openapi';
import { clientAddress, createSession, readSessionCookie, revokeSession, setSessionCookie } from '../session';
import { acceptInvitation, describeLink, invite, revokeInvitation, toInvitation } from './invites';
import { openInvitations } from './links';
import { completeReset, requestReset, resetLinkFor } from './resets';

function routes() {
  const admin = { security: [{ consoleSession: [] }], middleware: [requireSession()], tags: ['Console settings'] };
  const open = { tags: ['Console session'] };
  return {
    list: createRoute({
      ...admin,
      method: 'get',
      path: '/console-api/invitations',
      summary: 'Open invitations of the account, pending and expired (administrators)',
      responses: { 200: json(invitationsResponse, 'The invitations'), ...errorResponses(401, 403) },
    }),
    invite: createRoute({
      ...admin,
      method: 'post',
      path: '/console-api/invitations',
      summary: 'Invite an e-mail address with a role; answers the one-time link, mailed when SMTP is configured',
      request: { body: jsonBody(createInvitationRequest) },
      responses: { 200: json(createdInvitationResponse, 'The invitation'), ...errorResponses(400, 401, 403, 409) },
    }),
    revoke: createRoute({
      ...admin,
      method: 'delete',
      path: '/console-api/invitations/{id}',
      summary: 'Revoke an open invitation: its link stops working',
      request: { params: idParam },
      responses: { 200: json(okResponse, 'Revoked'), ...errorResponses(400, 401, 403, 404, 409) },
    }),
    resetLink: createRoute({
      ...admin,
      method: 'post',
      path: '/console-api/users/{id}/password-reset',
      summary: 'Make a password reset link for a user (administrators); mailed when SMTP is configured',
      request: { params: idParam },
      responses: { 200: json(sentLink, 'The link'), ...errorResponses(400, 401, 403, 404) },
    }),
    inspect: createRoute({
      ...open,
      method: 'post',
      path: '/console-api/links/inspect',
      summary: 'What an invitation or reset link is for, while it works',
      request: { body: jsonBody(linkRequest) },
      responses: { 200: json(linkInfoResponse, 'The link'), ...errorResponses(400, 410) },
    }),
    accept: createRoute({
      ...open,
      method: 'post',
      path: '/console-api/invitations/accept',
      summary: 'Join with an invitation: a name and a password (signs in), or SSO (answers where to start it)',
      request: { body: jsonBody(acceptInvitationRequest) },
      responses: { 200: json(acceptInvitationResponse, 'Joined'), ...errorResponses(400, 409, 410) },
    }),
    availability: createRoute({
      ...open,
      method: 'get',
      path: '/console-api/password-reset',
      summary: 'Whether password resets are sent by e-mail on this server',
      responses: { 200: json(passwordResetAvailability, 'Availability') },
    }),
    request: createRoute({
      ...open,
      method: 'post',
      path: '/console-api/password-reset',
      summary: 'Ask for a reset link by e-mail; the same answer for every address (throttled like sign-in)',
      request: { body: jsonBody(passwordResetRequest) },
      responses: { 200: json(okResponse, 'Sent where the address has a user'), ...errorResponses(400, 429) },
    }),
    complete: createRoute({
      ...open,
      method: 'post',
      path: '/console-api/password-reset/complete',
      summary: 'Set a new password with a reset link; ends the user’s other sessions and signs in',
      request: { body: jsonBody(completePasswordResetRequest) },
      responses: { 200: json(meResponse, 'Signed in'), ...errorResponses(400, 403, 410) },
    }),
  };
}

/** Invitations and password resets: one-time links (decision 0044). */
export function invitationRoutes(deps: AppDeps) {
  const { db } = deps.storage;
  const r = routes();
  const base = (c: Context) => publicBase(deps.config, c.req.url);
  /** Signs the browser in as the user, ending the session it had. */
  const signIn = async (c: Context<AppEnv>, user: UserRow) => {
    const previous = readSessionCookie(c);
    if (previous) await revokeSession(deps, previous);
    setSessionCookie(c, await createSession(deps, user));
    return toMe(user, await findAccount(db, user.account_id));
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const now = deps.clock.now().getTime();
      return c.json({ invitations: (await openInvitations(db, p.accountId)).map((i) => toInvitation(i, now)) }, 200);
    })
    .openapi(r.invite, async (c) => c.json(await invite(deps, principalOf(c), c.req.valid('json'), base(c)), 200))
    .openapi(r.revoke, async (c) => {
      await revokeInvitation(deps, principalOf(c), c.req.valid('param').id);
      return c.json({}, 200);
    })
    .openapi(r.resetLink, async (c) =>
      c.json(await resetLinkFor(deps, principalOf(c), c.req.valid('param').id, base(c)), 200),
    )
    .openapi(r.inspect, async (c) => c.json(await describeLink(deps, c.req.valid('json').token), 200))
    .openapi(r.accept, async (c) => {
      const input = c.req.valid('json');
      const user = await acceptInvitation(deps, input, clientAddress(c, deps.config.trustedProxies));
      if (input.sso) {
        const q = new URLSearchParams({ account: String(user.account_id), return_to: '/overview' });
        return c.json({ ssoUrl: `/sso/saml/login?${q}` }, 200);
      }
      return c.json({ user: await signIn(c, user) }, 200);
    })
    .openapi(r.availability, async (c) => c.json({ emailAvailable: Boolean(deps.config.smtp) }, 200))
    .openapi(r.request, async (c) => {
      await requestReset(deps, c, c.req.valid('json').email, base(c));
      return c.json({}, 200);
    })
    .openapi(r.complete, async (c) => {
      const { token, password } = c.req.valid('json');
      return c.json({ user: await signIn(c, await completeReset(deps, c, token, password)) }, 200);
    });
}
