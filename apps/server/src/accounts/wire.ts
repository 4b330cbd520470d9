import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from '@hono/zod-openapi';
import type { ConsoleApiKey, ConsoleUser, Me } from '@svc/contracts';
import { isoSeconds, isoTime } from '../platform/time';
import type { OwnedKeyRow } from './apiKeys';
import { maskKey } from './keys';
import type { AccountRow, UserRow } from './users';

/** `/v3` wire shapes of accounts, users and keys (td-api-v3 OAS `Account`, `User`; wire-compat §2.7). */
export const v3Account = z
  .object({
    id: z.number().int(),
    plan: z.number().int(),
    storage_size: z.number().int().nullable(),
    guaranteed_cores: z.number().int(),
    maximum_cores: z.number().int(),
    created_at: z.string().openapi({ example: '2026-01-01T00:00:00Z' }),
  })
  .openapi('Account');

export const v3User = z
  .object({
    id: z.number().int(),
    name: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    gravatar_url: z.string(),
    administrator: z.boolean(),
    account_owner: z.boolean(),
    created_at: z.string().openapi({ example: '2026-01-01T00:00:00Z' }),
    updated_at: z.string(),
    identifier: z.string().nullable().openapi({ description: 'SSO identifier; null until SSO is set up' }),
    full_qualified_identifier: z.string().nullable(),
    setting_name: z.string().nullable(),
  })
  .openapi('User');

export const v3AccountResponse = z.object({ account: v3Account });
export const v3UsersResponse = z.object({ users: z.array(v3User) });
export const v3ApiKeysResponse = z.object({
  apikeys: z.array(z.string()).openapi({ description: 'Masked keys, e.g. `12/••••••••a1b2`' }),
});
export const v3ApiKeyCreated = z.object({
  apikey: z.string().openapi({ description: 'The whole key. It is shown here once and never again.' }),
});
export const v3ApiKeyRemoved = z.object({ apikey: z.string().openapi({ description: 'The revoked key, masked' }) });
export const v3KeyValidation = z.object({
  key_type: z.enum(['master', 'write-only', 'session']),
  account_id: z.number().int(),
  user_id: z.number().int(),
  administrator: z.boolean(),
});

/** A self-hosted account has one plan; queries may use every core of the machine. */
export function toV3Account(row: AccountRow, storageBytes: number): z.infer<typeof v3Account> {
  return {
    id: row.id,
    plan: 0,
    storage_size: storageBytes,
    guaranteed_cores: 1,
    maximum_cores: availableParallelism(),
    created_at: isoSeconds(new Date(row.created_at)),
  };
}

function gravatarUrl(email: string): string {
  const digest = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${digest}`;
}

export function toV3User(row: UserRow): z.infer<typeof v3User> {
  return {
    id: row.id,
    name: row.name,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: null,
    gravatar_url: gravatarUrl(row.email),
    administrator: row.administrator === 1,
    account_owner: row.account_owner === 1,
    created_at: isoSeconds(new Date(row.created_at)),
    updated_at: isoSeconds(new Date(row.updated_at)),
    identifier: row.sso_identifier,
    full_qualified_identifier: null,
    setting_name: null,
  };
}

export function toConsoleUser(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    administrator: row.administrator === 1,
    accountOwner: row.account_owner === 1,
    createdAt: isoTime(new Date(row.created_at)),
    ssoMode: row.sso_mode,
    ssoIdentifier: row.sso_identifier,
  };
}

export function toConsoleKey(row: OwnedKeyRow, now: Date): ConsoleApiKey {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    masked: maskKey(row),
    createdAt: isoTime(new Date(row.created_at)),
    lastUsedAt: row.last_used_at === null ? null : isoTime(new Date(row.last_used_at)),
    expiresAt: row.expires_at === null ? null : isoTime(new Date(row.expires_at)),
    expired: row.expires_at !== null && row.expires_at <= now.getTime(),
    userId: row.user_id,
    ownerEmail: row.owner_email,
  };
}

export function toMe(user: UserRow, account: AccountRow): Me {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    administrator: user.administrator === 1,
    accountId: account.id,
    accountName: account.name,
  };
}
