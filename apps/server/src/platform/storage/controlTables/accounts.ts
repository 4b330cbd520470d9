import type { TableDescriptions } from './kinds';

/** The tables of the accounts feature (scripts/tables.mjs lists each table's owner). */
export const accountsTables = {
  accounts: {
    id: 'integer default',
    name: 'text',
    created_at: 'integer',
    default_folder_permission: 'text default',
  },
  users: {
    id: 'integer default',
    account_id: 'integer',
    name: 'text',
    email: 'text',
    first_name: 'text null',
    last_name: 'text null',
    administrator: 'integer default',
    account_owner: 'integer default',
    password_hash: 'text null',
    created_at: 'integer',
    updated_at: 'integer',
    sso_mode: 'text default',
    sso_identifier: 'text null',
  },
  api_keys: {
    id: 'integer default',
    account_id: 'integer',
    user_id: 'integer',
    type: 'text',
    secret_hash: 'blob',
    hint: 'text',
    created_at: 'integer',
    last_used_at: 'integer null',
    revoked_at: 'integer null',
    name: 'text default',
    expires_at: 'integer null',
  },
} as const satisfies TableDescriptions;
