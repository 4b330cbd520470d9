import {
  type SsoCertificate,
  type SsoLastTest,
  type SsoMetadataSource,
  type SsoServiceProvider,
  type SsoSetting,
  type SsoSettingInput,
  ssoLastTest,
} from '@svc/contracts';
import { z } from 'zod';
import { ssoEnforcedEmails } from '../accounts';
import { auditAction } from '../audit';
import { classifyAddress, literalAddress } from '../platform/addressPolicy';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { type Executor, type Row, transaction } from '../platform/storage';
import { isoTime } from '../platform/time';
import { revokeAccountSsoSessions } from '../session';
import { certificateWarnings, type ParsedCertificate, parseCertificates, readCertificates } from './certificates';
import { identityProviderName } from './providerName';

/** The account's SSO setting (spec: SSO setting resource). At most one per account. */

/**
 * Columns a setting being built may leave out: `last_test` (JSON of the last Test SSO's details, SsoLastTest),
 * the IdP metadata URL the setting follows (decision 0049) and its last fetch, and `cert_seen` (JSON
 * `{sha256 fingerprint: ms}`: when each listed certificate was first seen).
 */
type LaterColumns =
  | 'last_test'
  | 'metadata_url'
  | 'metadata_checked_at'
  | 'metadata_refreshed_at'
  | 'metadata_error'
  | 'cert_seen';

/** A row of `sso_settings`; its strategy is always SAML. */
export type SettingRow = Omit<Row<'sso_settings'>, 'strategy' | LaterColumns> & { strategy: 'samlp' } & Partial<
    Pick<Row<'sso_settings'>, LaterColumns>
  >;

export async function findSetting(db: Executor, accountId: number): Promise<SettingRow | null> {
  const row = await db
    .selectFrom('sso_settings')
    .selectAll()
    .where('account_id', '=', accountId)
    .$narrowType<{ strategy: 'samlp' }>()
    .executeTakeFirst();
  return row ?? null;
}

export async function getSetting(db: Executor, accountId: number): Promise<SettingRow> {
  const row = await findSetting(db, accountId);
  if (!row) throw notFound('sso_setting');
  return row;
}

/** When each of the certificates was first seen: kept from before, else now (before migration 44: the last save). */
export function certificatesSeen(existing: SettingRow | null, certs: ParsedCertificate[], now: Date): string {
  const before = readSeen(existing?.cert_seen);
  const had = new Set(existing ? readCertificates(existing.cert, now).map((c) => c.details.fingerprint_sha256) : []);
  const seen: Record<string, number> = {};
  for (const { details } of certs) {
    const fp = details.fingerprint_sha256;
    seen[fp] = before[fp] ?? (had.has(fp) && existing ? existing.updated_at : now.getTime());
  }
  return JSON.stringify(seen);
}

/** `cert_seen`: when each certificate (by SHA-256 fingerprint) was first seen, in ms; anything else reads as none. */
const seenTimes = z.record(z.string(), z.number());

function readSeen(text: string | null | undefined): Record<string, number> {
  if (!text) return {};
  const parsed = seenTimes.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : {};
}

/** A rollover: several certificates first seen at different times; the one seen last is the new one. */
function withRollover(row: SettingRow, certs: ParsedCertificate[]): SsoCertificate[] {
  const seen = readSeen(row.cert_seen);
  const times = certs.map((c) => seen[c.details.fingerprint_sha256] ?? null);
  const known = times.filter((t): t is number => t !== null);
  const latest = Math.max(...known);
  const rolling = known.length > 1 && Math.min(...known) < latest;
  return certs.map((c, i) => {
    const at = times[i] ?? null;
    return {
      ...c.details,
      first_seen_at: at === null ? null : isoTime(new Date(at)),
      rollover: rolling && at !== null ? (at === latest ? 'new' : 'old') : null,
    };
  });
}

export function toWireSetting(
  row: SettingRow,
  now: Date,
  sp: SsoServiceProvider,
  metadata: SsoMetadataSource | null,
): SsoSetting {
  const certs = readCertificates(row.cert, now);
  return {
    cert: row.cert,
    identity_provider_name: row.identity_provider_name,
    sign_in_endpoint: row.sign_in_endpoint,
    sign_out_endpoint: row.sign_out_endpoint,
    strategy: row.strategy,
    updated_at: isoTime(new Date(row.updated_at)),
    idp_entity_id: row.idp_entity_id,
    certificates: withRollover(row, certs),
    warnings: certificateWarnings(certs),
    service_provider: sp,
    tested_at: row.tested_at === null ? null : isoTime(new Date(row.tested_at)),
    last_test: readLastTest(row.last_test),
    metadata,
  };
}

function readLastTest(text: string | null | undefined): SsoLastTest | null {
  if (!text) return null;
  const parsed = ssoLastTest.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

const MAX_URL = 2048;

/** An identity provider address: https, or http for a loopback host (local test identity providers). */
export function endpoint(field: string, value: string): string {
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
  // Typed in full (POST), the setting no longer follows a metadata URL; an update (PUT) keeps following it.
  const follows = mode === 'update' ? existing : null;
  const row: SettingRow = {
    account_id: p.accountId,
    cert: pem,
    identity_provider_name: name,
    idp_entity_id: entityId,
    sign_in_endpoint: signIn,
    sign_out_endpoint: signOut,
    strategy: 'samlp',
    tested_at: testedAt(existing, pem, signIn, entityId),
    updated_at: now.getTime(),
    metadata_url: follows?.metadata_url ?? null,
    metadata_checked_at: follows?.metadata_checked_at ?? null,
    metadata_refreshed_at: follows?.metadata_refreshed_at ?? null,
    metadata_error: follows?.metadata_error ?? null,
    cert_seen: certificatesSeen(existing, certs, now),
  };
  await storeSetting(db, row);
  await auditAction(deps, p, existing ? 'sso_setting.update' : 'sso_setting.create', {
    details: {
      sign_in_endpoint: signIn,
      identity_provider_name: name,
      fingerprints_sha256: certs.map((c) => c.details.fingerprint_sha256),
    },
  });
  return row;
}

/** A passing test only vouches for the trust it ran against: it stays while that trust does. */
export function testedAt(existing: SettingRow | null, pem: string, signIn: string, entityId: string | null) {
  const same =
    existing !== null &&
    existing.cert === pem &&
    existing.sign_in_endpoint === signIn &&
    existing.idp_entity_id === entityId;
  return same ? existing.tested_at : null;
}

/** Writes the whole setting of the row's account, creating it when there is none. */
export async function storeSetting(db: Executor, row: SettingRow): Promise<void> {
  await db
    .insertInto('sso_settings')
    .values({
      account_id: row.account_id,
      cert: row.cert,
      identity_provider_name: row.identity_provider_name,
      idp_entity_id: row.idp_entity_id,
      sign_in_endpoint: row.sign_in_endpoint,
      sign_out_endpoint: row.sign_out_endpoint,
      strategy: row.strategy,
      tested_at: row.tested_at,
      updated_at: row.updated_at,
      metadata_url: row.metadata_url ?? null,
      metadata_checked_at: row.metadata_checked_at ?? null,
      metadata_refreshed_at: row.metadata_refreshed_at ?? null,
      metadata_error: row.metadata_error ?? null,
      cert_seen: row.cert_seen ?? null,
    })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet((eb) => ({
        cert: eb.ref('excluded.cert'),
        identity_provider_name: eb.ref('excluded.identity_provider_name'),
        idp_entity_id: eb.ref('excluded.idp_entity_id'),
        sign_in_endpoint: eb.ref('excluded.sign_in_endpoint'),
        sign_out_endpoint: eb.ref('excluded.sign_out_endpoint'),
        tested_at: eb.ref('excluded.tested_at'),
        updated_at: eb.ref('excluded.updated_at'),
        metadata_url: eb.ref('excluded.metadata_url'),
        metadata_checked_at: eb.ref('excluded.metadata_checked_at'),
        metadata_refreshed_at: eb.ref('excluded.metadata_refreshed_at'),
        metadata_error: eb.ref('excluded.metadata_error'),
        cert_seen: eb.ref('excluded.cert_seen'),
      })),
    )
    .execute();
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
    await tx.deleteFrom('sso_settings').where('account_id', '=', p.accountId).execute();
    await tx.deleteFrom('saml_requests').where('account_id', '=', p.accountId).execute();
  });
  await revokeAccountSsoSessions(deps, p.accountId);
  await auditAction(deps, p, 'sso_setting.delete');
}

/** Keeps what a Test SSO round trip asserted; a passing one also marks the setting tested. */
export async function recordTest(deps: AppDeps, accountId: number, test: Omit<SsoLastTest, 'at'>): Promise<void> {
  const now = deps.clock.now();
  const details = JSON.stringify({ ...test, at: isoTime(now) });
  await deps.storage.db
    .updateTable('sso_settings')
    .set(test.outcome === 'passed' ? { tested_at: now.getTime(), last_test: details } : { last_test: details })
    .where('account_id', '=', accountId)
    .execute();
}
