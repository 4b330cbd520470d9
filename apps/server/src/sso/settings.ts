import {
  type SsoLastTest,
  type SsoServiceProvider,
  type SsoSetting,
  type SsoSettingInput,
  ssoLastTest,
} from '@svc/contracts';
import { ssoEnforcedEmails } from '../accounts';
import { auditAction } from '../audit';
import { classifyAddress, literalAddress } from '../platform/addressPolicy';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { type Executor, one, run, sql, transaction } from '../platform/storage';
import { isoTime } from '../platform/time';
import { revokeAccountSsoSessions } from '../session';
import { certificateWarnings, parseCertificates, readCertificates } from './certificates';
import { identityProviderName } from './providerName';

/** The account's SSO setting (spec: SSO setting resource). At most one per account. */

export interface SettingRow {
  account_id: number;
  cert: string;
  identity_provider_name: string;
  idp_entity_id: string | null;
  sign_in_endpoint: string;
  sign_out_endpoint: string | null;
  strategy: 'samlp';
  tested_at: number | null;
  updated_at: number;
  /** JSON of the last Test SSO's details (SsoLastTest). */
  last_test?: string | null;
}

export async function findSetting(db: Executor, accountId: number): Promise<SettingRow | null> {
  return (await one<SettingRow>(db, sql`SELECT * FROM sso_settings WHERE account_id = ${accountId}`)) ?? null;
}

export async function getSetting(db: Executor, accountId: number): Promise<SettingRow> {
  const row = await findSetting(db, accountId);
  if (!row) throw notFound('sso_setting');
  return row;
}

export function toWireSetting(row: SettingRow, now: Date, sp: SsoServiceProvider): SsoSetting {
  const certs = readCertificates(row.cert, now);
  return {
    cert: row.cert,
    identity_provider_name: row.identity_provider_name,
    sign_in_endpoint: row.sign_in_endpoint,
    sign_out_endpoint: row.sign_out_endpoint,
    strategy: row.strategy,
    updated_at: isoTime(new Date(row.updated_at)),
    idp_entity_id: row.idp_entity_id,
    certificates: certs.map((c) => c.details),
    warnings: certificateWarnings(certs),
    service_provider: sp,
    tested_at: row.tested_at === null ? null : isoTime(new Date(row.tested_at)),
    last_test: readLastTest(row.last_test),
  };
}

function readLastTest(text: string | null | undefined): SsoLastTest | null {
  if (!text) return null;
  const parsed = ssoLastTest.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

const MAX_URL = 2048;

/** An identity provider address: https, or http for a loopback host (local test identity providers). */
function endpoint(field: string, value: string): string {
  const hint = `"${field}" must be an https URL such as https://idp.example.com/saml/sso`;
  if (value.length > MAX_URL) throw badRequest(`${hint}, at most ${MAX_URL} characters.`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badRequest(`${hint}; "${value.slice(0, 100)}" is not a URL.`);
  }
  // The browser goes there, not this server; the address policy only says whether the host is loopback.
  const literal = literalAddress(url.hostname);
  const loopbackHttp =
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || (literal !== null && classifyAddress(literal) === 'loopback'));
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw badRequest(`${hint} (http is accepted only for localhost and 127.0.0.1).`);
  }
  if (url.username || url.password) throw badRequest(`"${field}" must not contain a user name or password.`);
  return url.toString();
}

function providerNameInput(value: string | undefined, signIn: string): string {
  if (value === undefined || value.trim() === '') return identityProviderName(signIn);
  const name = value.trim();
  if (name.length > 100) throw badRequest('"identity_provider_name" must be at most 100 characters.');
  return name;
}

function entityIdInput(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const id = value.trim();
  if (id === '') return null;
  if (id.length > 1024) throw badRequest('"entity_id" must be at most 1024 characters.');
  return id;
}

export type SaveMode = 'replace' | 'update';

/**
 * POST creates or replaces the setting; PUT updates the one there is (404 without one), keeping omitted
 * fields. Server-set fields (`updated_at`, `tested_at`) in the body are ignored; `strategy` may only be samlp.
 */
export async function saveSetting(
  deps: AppDeps,
  p: Principal,
  input: SsoSettingInput,
  mode: SaveMode,
): Promise<SettingRow> {
  requireAdmin(p);
  const { db } = deps.storage;
  const now = deps.clock.now();
  const existing = await findSetting(db, p.accountId);
  if (mode === 'update' && !existing) throw notFound('sso_setting');
  if (input.strategy !== undefined && input.strategy !== 'samlp') {
    throw badRequest(`"strategy" must be "samlp" (SAML); "${input.strategy.slice(0, 40)}" is not supported.`);
  }
  const base = mode === 'update' ? existing : null;
  const signInRaw = input.sign_in_endpoint ?? base?.sign_in_endpoint;
  const certRaw = input.cert ?? base?.cert;
  if (signInRaw === undefined) throw badRequest('"sso_setting.sign_in_endpoint" is required.');
  if (certRaw === undefined)
    throw badRequest('"sso_setting.cert" is required: the identity provider\'s PEM certificate.');
  const signIn = endpoint('sign_in_endpoint', signInRaw);
  const signOutRaw =
    input.sign_out_endpoint === undefined ? (base?.sign_out_endpoint ?? null) : input.sign_out_endpoint;
  const signOut = signOutRaw === null || signOutRaw.trim() === '' ? null : endpoint('sign_out_endpoint', signOutRaw);
  const { certs, pem } = parseCertificates(certRaw, now);
  const name =
    input.identity_provider_name === undefined && base
      ? input.sign_in_endpoint === undefined
        ? base.identity_provider_name
        : identityProviderName(signIn)
      : providerNameInput(input.identity_provider_name, signIn);
  const entityIn = entityIdInput(input.entity_id);
  const entityId = entityIn === undefined ? (base?.idp_entity_id ?? null) : entityIn;
  // A passing test only vouches for the trust it ran against.
  const sameTrust =
    existing !== null &&
    existing.cert === pem &&
    existing.sign_in_endpoint === signIn &&
    existing.idp_entity_id === entityId;
  const row: SettingRow = {
    account_id: p.accountId,
    cert: pem,
    identity_provider_name: name,
    idp_entity_id: entityId,
    sign_in_endpoint: signIn,
    sign_out_endpoint: signOut,
    strategy: 'samlp',
    tested_at: sameTrust ? existing.tested_at : null,
    updated_at: now.getTime(),
  };
  await run(
    db,
    sql`INSERT INTO sso_settings (account_id, cert, identity_provider_name, idp_entity_id, sign_in_endpoint,
          sign_out_endpoint, strategy, tested_at, updated_at)
        VALUES (${row.account_id}, ${row.cert}, ${row.identity_provider_name}, ${row.idp_entity_id},
          ${row.sign_in_endpoint}, ${row.sign_out_endpoint}, ${row.strategy}, ${row.tested_at}, ${row.updated_at})
        ON CONFLICT (account_id) DO UPDATE SET cert = excluded.cert,
          identity_provider_name = excluded.identity_provider_name, idp_entity_id = excluded.idp_entity_id,
          sign_in_endpoint = excluded.sign_in_endpoint, sign_out_endpoint = excluded.sign_out_endpoint,
          tested_at = excluded.tested_at, updated_at = excluded.updated_at`,
  );
  await auditAction(deps, p, existing ? 'sso_setting.update' : 'sso_setting.create', {
    details: {
      sign_in_endpoint: signIn,
      identity_provider_name: name,
      fingerprints_sha256: certs.map((c) => c.details.fingerprint_sha256),
    },
  });
  return row;
}

/** Deleting is refused while anyone depends on SSO alone; afterwards every SSO session of the account ends. */
export async function deleteSetting(deps: AppDeps, p: Principal): Promise<void> {
  requireAdmin(p);
  const { db } = deps.storage;
  await getSetting(db, p.accountId);
  const enforced = await ssoEnforcedEmails(db, p.accountId, 3);
  if (enforced.length > 0) {
    throw conflict(
      `SSO is enforced for ${enforced.join(', ')}${enforced.length === 3 ? ' and maybe others' : ''}. Enable or disable SSO for them first, or they could no longer sign in.`,
    );
  }
  await transaction(deps.storage, async (tx) => {
    await run(tx, sql`DELETE FROM sso_settings WHERE account_id = ${p.accountId}`);
    await run(tx, sql`DELETE FROM saml_requests WHERE account_id = ${p.accountId}`);
  });
  await revokeAccountSsoSessions(deps, p.accountId);
  await auditAction(deps, p, 'sso_setting.delete');
}

/** Keeps what a Test SSO round trip asserted; a passing one also marks the setting tested. */
export async function recordTest(deps: AppDeps, accountId: number, test: Omit<SsoLastTest, 'at'>): Promise<void> {
  const now = deps.clock.now();
  const details = JSON.stringify({ ...test, at: isoTime(now) });
  await run(
    deps.storage.db,
    test.outcome === 'passed'
      ? sql`UPDATE sso_settings SET tested_at = ${now.getTime()}, last_test = ${details} WHERE account_id = ${accountId}`
      : sql`UPDATE sso_settings SET last_test = ${details} WHERE account_id = ${accountId}`,
  );
}
