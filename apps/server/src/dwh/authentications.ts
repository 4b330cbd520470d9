import type { Authentication, AuthenticationCreate, authenticationUpdate } from '@svc/contracts';
import type { z } from 'zod';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { isoTime } from '../platform/time';
import type { ConnectionSpec } from './connection';
import { decryptSecret, encryptSecret } from './crypto';

type AuthenticationUpdate = z.infer<typeof authenticationUpdate>;

/** Stored warehouse authentications, scoped by account; the password only as ciphertext. */

interface AuthRow {
  id: number;
  account_id: number;
  name: string;
  host: string;
  port: number;
  database_name: string;
  user_name: string;
  ssl_mode: ConnectionSpec['ssl_mode'];
  secret_enc: string;
  created_at: number;
  updated_at: number;
}

export function toWireAuthentication(row: AuthRow): Authentication {
  return {
    id: row.id,
    svc_authentication_id: row.id,
    name: row.name,
    type: 'postgresql',
    host: row.host,
    port: row.port,
    database: row.database_name,
    user: row.user_name,
    ssl_mode: row.ssl_mode,
    password_set: row.secret_enc !== '',
    created_at: isoTime(new Date(row.created_at)),
    updated_at: isoTime(new Date(row.updated_at)),
  };
}

export function listAuthentications(deps: AppDeps, accountId: number): AuthRow[] {
  return deps.db
    .prepare('SELECT * FROM dwh_authentications WHERE account_id = ? ORDER BY name')
    .all(accountId) as AuthRow[];
}

export function requireAuthentication(deps: AppDeps, accountId: number, id: unknown): AuthRow {
  const n = Number(id);
  const row = Number.isSafeInteger(n)
    ? (deps.db.prepare('SELECT * FROM dwh_authentications WHERE account_id = ? AND id = ?').get(accountId, n) as
        | AuthRow
        | undefined)
    : undefined;
  if (!row) throw notFound('authentication');
  return row;
}

export function insertAuthentication(
  deps: AppDeps,
  accountId: number,
  userId: number,
  v: AuthenticationCreate,
): AuthRow {
  const now = deps.clock.now().getTime();
  const secret = v.password ? encryptSecret(deps.config.secret, v.password) : '';
  try {
    const r = deps.db
      .prepare(
        `INSERT INTO dwh_authentications (account_id, user_id, name, host, port, database_name, user_name, ssl_mode,
           secret_enc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        accountId,
        userId,
        v.name,
        v.host,
        v.port ?? 5432,
        v.database,
        v.user,
        v.ssl_mode ?? 'require',
        secret,
        now,
        now,
      );
    return requireAuthentication(deps, accountId, r.lastInsertRowid);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw conflict(`An authentication named "${v.name}" already exists. Choose another name.`);
    }
    throw err;
  }
}

/**
 * Changes an authentication: fields sent replace the stored ones; a new `password` is encrypted afresh
 * (an empty string clears it); no `password` keeps the stored one.
 */
export function updateAuthentication(deps: AppDeps, row: AuthRow, v: AuthenticationUpdate): AuthRow {
  const secret =
    v.password === undefined ? row.secret_enc : v.password ? encryptSecret(deps.config.secret, v.password) : '';
  try {
    deps.db
      .prepare(
        `UPDATE dwh_authentications SET name = ?, host = ?, port = ?, database_name = ?, user_name = ?, ssl_mode = ?,
           secret_enc = ?, updated_at = ? WHERE id = ? AND account_id = ?`,
      )
      .run(
        v.name ?? row.name,
        v.host ?? row.host,
        v.port ?? row.port,
        v.database ?? row.database_name,
        v.user ?? row.user_name,
        v.ssl_mode ?? row.ssl_mode,
        secret,
        deps.clock.now().getTime(),
        row.id,
        row.account_id,
      );
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw conflict(`An authentication named "${v.name}" already exists. Choose another name.`);
    }
    throw err;
  }
  const next = requireAuthentication(deps, row.account_id, row.id);
  // Sessions show the connection they read from: keep their copy in step (a database chosen apart stays).
  deps.db
    .prepare(
      `UPDATE bulk_loads SET config_json = json_set(config_json, '$.in.host', ?, '$.in.port', ?, '$.in.user', ?,
         '$.in.ssl_mode', ?, '$.in.database',
         CASE WHEN json_extract(config_json, '$.in.database') = ? THEN ? ELSE json_extract(config_json, '$.in.database') END)
       WHERE account_id = ? AND json_extract(config_json, '$.in.svc_authentication_id') = ?`,
    )
    .run(
      next.host,
      next.port,
      next.user_name,
      next.ssl_mode,
      row.database_name,
      next.database_name,
      row.account_id,
      row.id,
    );
  return next;
}

export function deleteAuthentication(deps: AppDeps, row: AuthRow): void {
  const users = deps.db
    .prepare(
      `SELECT name FROM dwh_integrations WHERE account_id = ?
         AND json_extract(config_json, '$.basic_configs.svc_authentication_id') = ? ORDER BY name LIMIT 5`,
    )
    .all(row.account_id, row.id) as { name: string }[];
  if (users.length > 0) {
    throw conflict(
      `The authentication "${row.name}" is used by the integration(s) ${users.map((u) => `"${u.name}"`).join(', ')}; change or delete them first.`,
    );
  }
  deps.db.prepare('DELETE FROM dwh_authentications WHERE id = ? AND account_id = ?').run(row.id, row.account_id);
}

/** The connection settings with the decrypted password, for connecting only. */
export function connectionSpec(deps: AppDeps, row: AuthRow): ConnectionSpec {
  return {
    host: row.host,
    port: row.port,
    database: row.database_name,
    user: row.user_name,
    password: row.secret_enc ? decryptSecret(deps.config.secret, row.secret_enc) : '',
    ssl_mode: row.ssl_mode,
  };
}

/** What a bulk load session's `config.in` shows of the authentication (no secret). */
export function sourceFields(row: AuthRow): Record<string, unknown> {
  return {
    type: 'postgresql',
    svc_authentication_id: row.id,
    host: row.host,
    port: row.port,
    database: row.database_name,
    user: row.user_name,
    ssl_mode: row.ssl_mode,
  };
}
