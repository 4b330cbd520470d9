import type { SsoMetadataSource } from '@svc/contracts';
import { auditAction, recordAudit } from '../audit';
import { type Principal, requireAdmin } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { ApiError, conflict, notFound, unprocessable } from '../platform/errors';
import { claimSlot } from '../platform/storage';
import { isoTime } from '../platform/time';
import { readCertificates } from './certificates';
import { type IdpMetadata, metadataUrlInput, readMetadataUrl } from './metadataFetch';
import { identityProviderName } from './providerName';
import { certificatesSeen, endpoint, findSetting, type SettingRow, storeSetting, testedAt } from './settings';

/**
 * The SSO setting taken from the identity provider's metadata URL (decision 0049): set once by an
 * administrator, fetched again by the schedule (`SVC_SSO_METADATA_REFRESH_HOURS`, daily by default; an hour
 * after a failed fetch) and by "Refresh now". A failed fetch leaves the setting as it was and records why.
 * The certificates follow the metadata: a new one is trusted beside the old while both are listed, and the
 * old one is dropped when the metadata no longer lists it.
 */

const HOUR_MS = 3_600_000;
const DEFAULT_REFRESH_MS = 24 * HOUR_MS;

/** When the schedule fetches next: one period after the last fetch, or at most an hour after a failed one. */
function nextRefresh(deps: AppDeps, row: SettingRow): number {
  const every = deps.config.ssoMetadataRefreshMs ?? DEFAULT_REFRESH_MS;
  const last = row.metadata_checked_at ?? row.updated_at;
  return last + (row.metadata_error ? Math.min(every, HOUR_MS) : every);
}

/** The wire form of the URL the setting follows, or null. */
export function metadataSource(deps: AppDeps, row: SettingRow): SsoMetadataSource | null {
  if (!row.metadata_url) return null;
  const at = (t: number | null | undefined) => (t === null || t === undefined ? null : isoTime(new Date(t)));
  return {
    url: row.metadata_url,
    checked_at: at(row.metadata_checked_at),
    refreshed_at: at(row.metadata_refreshed_at),
    error: row.metadata_error ?? null,
    next_refresh_at: isoTime(new Date(nextRefresh(deps, row))),
  };
}

/** An endpoint of the metadata, held to the rules of a typed one. */
function metadataEndpoint(field: 'sign_in_endpoint' | 'sign_out_endpoint', value: string): string {
  try {
    return endpoint(field, value);
  } catch (err) {
    const tag = field === 'sign_in_endpoint' ? 'SingleSignOnService' : 'SingleLogoutService';
    throw unprocessable(`The metadata's ${tag} location is not usable: ${(err as Error).message}`);
  }
}

/** The setting the metadata describes. A name typed by hand stays on refresh; a derived one follows the endpoint. */
function settingFrom(existing: SettingRow | null, accountId: number, md: IdpMetadata, url: string, now: Date) {
  const signIn = metadataEndpoint('sign_in_endpoint', md.signIn);
  const signOut = md.signOut ? metadataEndpoint('sign_out_endpoint', md.signOut) : null;
  const pem = md.certs.map((c) => c.pem).join('\n');
  const typedName =
    existing?.metadata_url && existing.identity_provider_name !== identityProviderName(existing.sign_in_endpoint);
  const row: SettingRow = {
    account_id: accountId,
    cert: pem,
    identity_provider_name: typedName ? existing.identity_provider_name : identityProviderName(signIn),
    idp_entity_id: md.entityId,
    sign_in_endpoint: signIn,
    sign_out_endpoint: signOut,
    strategy: 'samlp',
    tested_at: testedAt(existing, pem, signIn, md.entityId),
    updated_at: now.getTime(),
    metadata_url: url,
    metadata_checked_at: now.getTime(),
    metadata_refreshed_at: now.getTime(),
    metadata_error: null,
    cert_seen: certificatesSeen(existing, md.certs, now),
  };
  return row;
}

const read = (deps: AppDeps, url: string) =>
  readMetadataUrl(url, () => deps.clock.now(), { switches: deps.config.outbound });

/** The URL as the audit log keeps it: without its query, which could carry a token. */
const shownUrl = (url: string) => {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
};

const fingerprints = (row: SettingRow, now: Date) =>
  readCertificates(row.cert, now).map((c) => ({ subject: c.details.subject, sha256: c.details.fingerprint_sha256 }));

/** Sets the account's SSO setting from the metadata at the URL, which it then follows. */
export async function followMetadataUrl(deps: AppDeps, p: Principal, rawUrl: unknown): Promise<void> {
  requireAdmin(p);
  const url = metadataUrlInput(rawUrl);
  const md = await read(deps, url);
  const now = deps.clock.now();
  const existing = await findSetting(deps.storage.db, p.accountId);
  const row = settingFrom(existing, p.accountId, md, url, now);
  await storeSetting(deps.storage.db, row);
  await auditAction(deps, p, existing ? 'sso_setting.update' : 'sso_setting.create', {
    details: {
      metadata_url: shownUrl(url),
      sign_in_endpoint: row.sign_in_endpoint,
      identity_provider_name: row.identity_provider_name,
      fingerprints_sha256: md.certs.map((c) => c.details.fingerprint_sha256),
    },
  });
}

/** Stops following the URL; the setting stays as the last fetch left it. */
export async function stopFollowing(deps: AppDeps, p: Principal): Promise<void> {
  requireAdmin(p);
  const row = await findSetting(deps.storage.db, p.accountId);
  if (!row) throw notFound('sso_setting');
  if (!row.metadata_url) return;
  await deps.storage.db
    .updateTable('sso_settings')
    .set({ metadata_url: null, metadata_checked_at: null, metadata_refreshed_at: null, metadata_error: null })
    .where('account_id', '=', p.accountId)
    .execute();
  await auditAction(deps, p, 'sso_setting.update', { details: { metadata_url: null } });
}

/** What a refresh changed, for the audit log; null when nothing did. */
function changesOf(before: SettingRow, after: SettingRow, now: Date): Record<string, unknown> | null {
  const fields = (['sign_in_endpoint', 'sign_out_endpoint', 'idp_entity_id', 'identity_provider_name'] as const).filter(
    (f) => before[f] !== after[f],
  );
  const old = fingerprints(before, now);
  const next = fingerprints(after, now);
  const added = next.filter((c) => !old.some((o) => o.sha256 === c.sha256));
  const removed = old.filter((c) => !next.some((n) => n.sha256 === c.sha256));
  if (fields.length === 0 && added.length === 0 && removed.length === 0) return null;
  return {
    metadata_url: shownUrl(after.metadata_url as string),
    changed_fields: fields,
    certificates_added: added,
    certificates_removed: removed,
  };
}

/**
 * Fetches the followed URL again. On success the setting becomes what the metadata says (an audit entry
 * when something changed); on failure only the time and the error are recorded, and the 4xx is thrown.
 * `by`: the administrator who pressed "Refresh now", or null for the schedule.
 */
export async function refreshMetadata(deps: AppDeps, accountId: number, by: Principal | null): Promise<void> {
  const db = deps.storage.db;
  const before = await findSetting(db, accountId);
  if (!before) throw notFound('sso_setting');
  const url = before.metadata_url;
  if (!url) {
    throw conflict(
      'The SSO setting does not follow a metadata URL; set one first (POST /v3/account/sso_setting/metadata).',
    );
  }
  let next: SettingRow;
  try {
    next = settingFrom(before, accountId, await read(deps, url), url, deps.clock.now());
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await db
      .updateTable('sso_settings')
      .set({ metadata_checked_at: deps.clock.now().getTime(), metadata_error: err.message })
      .where('account_id', '=', accountId)
      .where('metadata_url', '=', url)
      .execute();
    throw err;
  }
  // A change saved while the fetch ran wins; this fetch is dropped.
  const current = await findSetting(db, accountId);
  if (!current || current.updated_at !== before.updated_at || current.metadata_url !== url) return;
  const changes = changesOf(before, next, deps.clock.now());
  if (!changes) {
    await db
      .updateTable('sso_settings')
      .set({ metadata_checked_at: next.updated_at, metadata_refreshed_at: next.updated_at, metadata_error: null })
      .where('account_id', '=', accountId)
      .execute();
    return;
  }
  await storeSetting(db, next);
  const what = { details: changes };
  if (by) await auditAction(deps, by, 'sso_setting.metadata_refresh', what);
  else {
    await recordAudit(deps, {
      accountId,
      actorUserId: null,
      actor: 'scheduled metadata refresh',
      action: 'sso_setting.metadata_refresh',
      outcome: 'success',
      details: changes,
    });
  }
}

/**
 * The schedule, run at the tick of the other schedules (bulkLoads.onTick): each due URL is fetched by the
 * one node that claims its slot. The slot is the due time computed from the stored row, the same on every node.
 */
export function ssoMetadataTick(deps: AppDeps): (now: number) => Promise<number> {
  return async (now) => {
    // The one look across accounts; each refresh is scoped by its row's account.
    const rows = await deps.storage.db
      .selectFrom('sso_settings')
      .selectAll()
      .where('metadata_url', 'is not', null)
      .$narrowType<{ strategy: 'samlp' }>()
      .execute();
    for (const row of rows) {
      const due = nextRefresh(deps, row);
      if (due > now) continue;
      if (!(await claimSlot(deps.storage.db, `sso_metadata:${row.account_id}`, due, now))) continue;
      try {
        await refreshMetadata(deps, row.account_id, null);
      } catch (err) {
        deps.logger.warn('sso metadata refresh failed', {
          account_id: row.account_id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
    // Refreshes queue no job: the tick's count is of queued runs.
    return 0;
  };
}
