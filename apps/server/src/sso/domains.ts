import type { SsoDomain } from '@svc/contracts';
import { getUser } from '../accounts';
import { auditAction } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import type { Executor, Row } from '../platform/storage';
import { isoTime } from '../platform/time';

/**
 * E-mail domains an account claims for single sign-on (decision 0037). A domain belongs to at most one
 * account. No DNS check is possible here, so the evidence is the claiming administrator's own address: an
 * administrator claims only the domain of the address they sign in with, and domains everyone can get an
 * address at (public mail services) are refused.
 */

const MAX_DOMAINS_PER_ACCOUNT = 20;

/** Mail services anyone can open an address at: claiming one would send strangers to this account's IdP. */
const PUBLIC_MAIL = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'mail.com',
  'yandex.com',
  'example.com',
]);

const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** The domain part of an address, lower-cased; null when the text is not an address. */
function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

function domainInput(value: string): string {
  const domain = value.trim().toLowerCase().replace(/^@/, '');
  if (!DOMAIN.test(domain)) {
    throw badRequest(
      `"domain" must be an e-mail domain such as example.org (letters, digits and hyphens, with a dot); "${value.slice(0, 100)}" is not one.`,
    );
  }
  if (PUBLIC_MAIL.has(domain)) {
    throw badRequest(`${domain} is a public mail service: anyone can have an address there, so it cannot be claimed.`);
  }
  return domain;
}

type DomainRow = Row<'sso_domains'>;

export const toWireDomain = (row: DomainRow): SsoDomain => ({
  domain: row.domain,
  claimed_by: row.claimed_by,
  created_at: isoTime(new Date(Number(row.created_at))),
});

export function listDomains(db: Executor, accountId: number): Promise<DomainRow[]> {
  return db.selectFrom('sso_domains').selectAll().where('account_id', '=', accountId).orderBy('domain').execute();
}

export async function claimDomain(deps: AppDeps, p: Principal, input: string): Promise<DomainRow> {
  requireAdmin(p);
  const { db } = deps.storage;
  const domain = domainInput(input);
  const own = domainOfEmail((await getUser(db, p.accountId, p.userId)).email);
  if (own !== domain) {
    throw forbidden(
      `You can claim only the domain of your own e-mail address (${own ?? 'none'}): it is how this service knows the domain is yours. An administrator with an address at ${domain} can claim it.`,
    );
  }
  const existing = await db.selectFrom('sso_domains').selectAll().where('domain', '=', domain).executeTakeFirst();
  if (existing && Number(existing.account_id) === p.accountId) return existing;
  if (existing) {
    throw conflict(`${domain} is claimed by another account. If it is yours, ask the operator of this service.`);
  }
  const count = await db
    .selectFrom('sso_domains')
    .select((s) => s.fn.countAll().as('n'))
    .where('account_id', '=', p.accountId)
    .executeTakeFirst();
  if (Number(count?.n ?? 0) >= MAX_DOMAINS_PER_ACCOUNT) {
    throw badRequest(`An account claims at most ${MAX_DOMAINS_PER_ACCOUNT} domains; release one first.`);
  }
  const row: DomainRow = {
    domain,
    account_id: p.accountId,
    claimed_by: p.email,
    created_at: deps.clock.now().getTime(),
  };
  const added = await db
    .insertInto('sso_domains')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  // Another request claimed it meanwhile: answer as the loser of that race would have been answered above.
  if (Number(added.numInsertedOrUpdatedRows ?? 0) === 0) return claimDomain(deps, p, input);
  await auditAction(deps, p, 'sso_domain.claim', { target: domain });
  return row;
}

export async function releaseDomain(deps: AppDeps, p: Principal, input: string): Promise<void> {
  requireAdmin(p);
  const domain = input.trim().toLowerCase();
  const { numDeletedRows } = await deps.storage.db
    .deleteFrom('sso_domains')
    .where('account_id', '=', p.accountId)
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (Number(numDeletedRows) === 0) throw notFound('sso_domain');
  await auditAction(deps, p, 'sso_domain.release', { target: domain });
}

/**
 * The account whose identity provider signs in the owner of this address, or null: when no account claims
 * the domain, and equally when the account that claims it has no SSO setting (decision 0028 and 0037).
 */
export async function ssoAccountForEmail(db: Executor, email: string): Promise<number | null> {
  const domain = domainOfEmail(email);
  if (domain === null) return null;
  const row = await db
    .selectFrom('sso_domains as d')
    .innerJoin('sso_settings as s', 's.account_id', 'd.account_id')
    .select('d.account_id')
    .where('d.domain', '=', domain)
    .executeTakeFirst();
  return row ? Number(row.account_id) : null;
}
