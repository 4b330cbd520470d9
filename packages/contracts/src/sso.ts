import { z } from 'zod';

/**
 * Wire shapes of single sign-on: the account's SSO setting (`/v3/account/sso_setting`) and the user
 * SSO operations (`/v3/user/*_sso/*`). Field names follow the /v3 snake_case style.
 */

export const ssoModes = ['disabled', 'enabled', 'enforced'] as const;
/** disabled: password only; enabled: password or SSO; enforced: SSO only. */
export const ssoMode = z.enum(ssoModes);
export type SsoMode = z.infer<typeof ssoMode>;

/** What the server read from one PEM certificate of the setting. */
export const ssoCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial_number: z.string(),
  fingerprint_sha256: z.string(),
  key: z.string(),
  not_before: z.string(),
  not_after: z.string(),
  /** Whole days until `not_after` (negative once expired). */
  expires_in_days: z.number().int(),
  /** When this server first saw the certificate in the setting (null for settings older than migration 44). */
  first_seen_at: z.string().nullable(),
  /**
   * During a rollover (several certificates, seen at different times): `new` for the certificate seen last,
   * `old` for the others; null otherwise. Assertions signed by any listed certificate are accepted.
   */
  rollover: z.enum(['new', 'old']).nullable(),
});
export type SsoCertificate = z.infer<typeof ssoCertificate>;

/** Our side of the SAML trust: what to enter at the identity provider. */
export const ssoServiceProvider = z.object({
  entity_id: z.string(),
  acs_url: z.string(),
  metadata_url: z.string(),
});
export type SsoServiceProvider = z.infer<typeof ssoServiceProvider>;

/** What the last "Test SSO" round trip asserted and the user it maps to (null when none ran since migration 37). */
export const ssoLastTest = z.object({
  at: z.string(),
  outcome: z.enum(['passed', 'failed']),
  /** The refusal code and its sentence when the test failed. */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  name_id: z.string().nullable(),
  name_id_format: z.string().nullable(),
  attributes: z.record(z.string(), z.array(z.string())),
  /** The user of this account the NameID maps to, or null when none has it. */
  user: z.object({ email: z.string(), name: z.string().nullable(), sso_mode: ssoMode }).nullable(),
});
export type SsoLastTest = z.infer<typeof ssoLastTest>;

/** The metadata URL the setting follows (decision 0049): fetched again on a schedule and by "Refresh now". */
export const ssoMetadataSource = z.object({
  url: z.string(),
  /** The last fetch, successful or not. */
  checked_at: z.string().nullable(),
  /** The last fetch that succeeded: the settings are as it read them. */
  refreshed_at: z.string().nullable(),
  /** Why the last fetch failed (the settings stayed as they were), or null. */
  error: z.string().nullable(),
  /** When the schedule fetches it next. */
  next_refresh_at: z.string(),
});
export type SsoMetadataSource = z.infer<typeof ssoMetadataSource>;

export const ssoSetting = z.object({
  cert: z.string(),
  identity_provider_name: z.string(),
  sign_in_endpoint: z.string(),
  sign_out_endpoint: z.string().nullable(),
  strategy: z.literal('samlp'),
  updated_at: z.string(),
  /** The identity provider's entity ID; when set, the Issuer of every assertion must equal it. */
  idp_entity_id: z.string().nullable(),
  certificates: z.array(ssoCertificate),
  /** Things to act on soon, e.g. a certificate expiring within 30 days. */
  warnings: z.array(z.string()),
  service_provider: ssoServiceProvider,
  /** When a "Test SSO" round trip last succeeded for this setting, or null. */
  tested_at: z.string().nullable(),
  last_test: ssoLastTest.nullable(),
  /** The metadata URL the setting follows, or null when it was typed or imported from a file. */
  metadata: ssoMetadataSource.nullable(),
});
export type SsoSetting = z.infer<typeof ssoSetting>;
export const ssoSettingResponse = z.object({ sso_setting: ssoSetting });

/** The body of POST/PUT `/v3/account/sso_setting`: `{sso_setting: SsoSettingInput}`. */
export const ssoSettingInput = z.object({
  sign_in_endpoint: z.string().optional(),
  sign_out_endpoint: z.string().nullable().optional(),
  cert: z.string().optional(),
  identity_provider_name: z.string().optional(),
  entity_id: z.string().nullable().optional(),
  strategy: z.string().optional(),
});
export type SsoSettingInput = z.infer<typeof ssoSettingInput>;

/** The body of POST `/v3/account/sso_setting/metadata`: the IdP metadata URL to fetch the setting from. */
export const ssoMetadataInput = z.object({ metadata_url: z.string() });

/** An e-mail domain the account claims: its people are sent to the account's identity provider. */
export const ssoDomain = z.object({ domain: z.string(), claimed_by: z.string(), created_at: z.string() });
export type SsoDomain = z.infer<typeof ssoDomain>;
export const ssoDomainList = z.object({ sso_domains: z.array(ssoDomain) });
export const ssoDomainResponse = z.object({ sso_domain: ssoDomain });

/** The console's sign-in asks where an address signs in with SSO (decision 0037). */
export const ssoDiscoverRequest = z.object({
  email: z.string().max(254),
  returnTo: z.string().max(512).optional(),
});
export type SsoDiscoverRequest = z.infer<typeof ssoDiscoverRequest>;
/** `url` starts the sign-in at the identity provider; null when the address's domain has no SSO here. */
export const ssoDiscoverResponse = z.object({ url: z.string().nullable() });

export const userSsoRecord = z.object({ email: z.string(), identifier: z.string().nullable() });
export const userSsoCreated = z.object({ first_name: z.string(), email: z.string(), identifier: z.string() });
