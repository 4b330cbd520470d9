import { z } from 'zod';

/**
 * The account's audit log (`/v3/account/audit_log`): every administrative and security event, append-only.
 * Field names follow the /v3 snake_case style.
 */

/** Every action the log records, by group, with the words the console shows for it. */
export const AUDIT_ACTIONS = {
  Users: {
    'user.create': 'User added',
    'user.create_with_sso': 'SSO user added',
    'user.update': 'User renamed',
    'user.remove': 'User removed',
    'user.role_change': 'Role changed',
    'user.email_change': 'E-mail changed',
    'invitation.create': 'User invited',
    'invitation.revoke': 'Invitation revoked',
    'invitation.accept': 'Invitation accepted',
  },
  'Sign-in': {
    'user.sign_in': 'Password sign-in',
    'user.login_throttled': 'Sign-in throttled',
    'user.password_change': 'Password changed',
    'user.password_reset_link': 'Password reset link created',
    'user.password_reset': 'Password reset',
    'sso.sign_in': 'SSO sign-in',
    'sso.test': 'Test SSO',
  },
  'Single sign-on': {
    'sso_setting.create': 'SSO set up',
    'sso_setting.update': 'SSO setting changed',
    'sso_setting.delete': 'SSO setting deleted',
    'sso_setting.metadata_refresh': 'SSO metadata refreshed',
    'user.enable_sso': 'SSO enabled for a user',
    'user.enforce_sso': 'SSO enforced for a user',
    'user.disable_sso': 'SSO disabled for a user',
    'sso_domain.claim': 'SSO domain claimed',
    'sso_domain.release': 'SSO domain released',
  },
  'API keys': {
    'api_key.create': 'API key created',
    'api_key.revoke': 'API key revoked',
  },
  Permissions: {
    'folder.permissions_change': 'Folder permissions changed',
    'account.settings_change': 'Account setting changed',
  },
  Warehouse: {
    'dwh.feature_change': 'Warehouse sync switched',
    'dwh.authentication_create': 'Warehouse authentication added',
    'dwh.authentication_update': 'Warehouse authentication changed',
    'dwh.authentication_delete': 'Warehouse authentication deleted',
    'dwh.integration_create': 'Integration created',
    'dwh.integration_update': 'Integration changed',
    'dwh.integration_delete': 'Integration deleted',
  },
  Journeys: {
    'journey.launch': 'Journey launched',
    'journey.pause': 'Journey paused',
    'journey.resume': 'Journey resumed',
    'journey.delete': 'Journey deleted',
  },
} as const;

type Groups = typeof AUDIT_ACTIONS;
export type AuditAction = { [G in keyof Groups]: keyof Groups[G] }[keyof Groups];

/** The label of each action, e.g. `user.create` → "User added". */
export const auditActionLabels: Readonly<Record<AuditAction, string>> = Object.assign(
  {},
  ...Object.values(AUDIT_ACTIONS),
) as Record<AuditAction, string>;
export const auditActionNames = Object.keys(auditActionLabels) as AuditAction[];

export const auditOutcome = z.enum(['success', 'failure']);
export const auditEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: auditOutcome,
  /** A stable code for refusals, e.g. `signature_invalid`. */
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEvent = z.infer<typeof auditEvent>;
export const auditLogResponse = z.object({
  events: z.array(auditEvent),
  /** Pass as `before` to read older events; null at the start of the log. */
  next_before: z.number().int().nullable(),
});
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

/** Filters of the log and of its CSV export; every one optional, all of them must hold. */
export interface AuditFilter {
  /** The actor as recorded: an e-mail, an address, "identity provider" (any case). */
  actor?: string;
  /** One or more actions. */
  action?: AuditAction[];
  /** ISO 8601 times: from (inclusive) and to (exclusive). */
  from?: string;
  to?: string;
}
