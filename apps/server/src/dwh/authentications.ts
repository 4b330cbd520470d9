import type { Authentication, AuthenticationCreate, authenticationUpdate } from '@svc/contracts';
import type { z } from 'zod';
import { userColumnOf } from '../accounts';
import { listBulkLoads, readConfig, setBulkLoadConfig } from '../bulk-loads';
import type { AppDeps } from '../platform/context';
import { conflict, notFound } from '../platform/errors';
import { decryptSecret, encryptSecret } from '../platform/secretCipher';
import { type Executor, isUniqueViolation, many, type Row, sql, transaction } from '../platform/storage';
import { isoTime } from '../platform/time';
import type { ConnectionSpec } from './connection';
import { readConfigs } from './storedConfigs';

type AuthenticationUpdate = z.infer<typeof authenticationUpdate>;

/** Stored warehouse authentications, scoped by account; the password only as ciphertext. */

/** A row of `dwh_authentications` as the feature reads it; the password only as ciphertext (`secret_enc`). */
export type AuthRow = Pick<
  Row<'dwh_authentications'>,
  | 'id'
  | 'account_id'
  | 'name'
  | 'host'
  | 'port'
  | 'database_name'
  | 'user_name'
  | 'secret_enc'
  | 'created_at'
  | 'updated_at'
> & { ssl_mode: ConnectionSpec['ssl_mode'] };

/** Whole rows of `dwh_authentications`, their SSL mode narrowed. */
const authRows = (ex: Executor) =>
  ex.selectFrom('dwh_authentications').selectAll().$narrowType<{ ssl_mode: ConnectionSpec['ssl_mode'] }>();

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

export async function listAuthentications(deps: AppDeps, accountId: number): Promise<AuthRow[]> {
  return authRows(deps.storage.db).where('account_id', '=', accountId).orderBy('name').execute();
}

export async function requireAuthentication(deps: AppDeps, accountId: number, id: unknown): Promise<AuthRow> {
  const n = Number(id);
  const row = Number.isSafeInteger(n)
    ? await authRows(deps.storage.db).where('account_id', '=', accountId).where('id', '=', n).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('authentication');
  return row;
}

const nameTaken = (name: string | undefined) =>
  conflict(`An authentication named "${name}" already exists. Choose another name.`);

export async function insertAuthentication(
  deps: AppDeps,
  accountId: number,
  userId: number,
  v: AuthenticationCreate,
  record: (tx: Executor, id: number) => Promise<void> = async () => {},
): Promise<AuthRow> {
  const now = deps.clock.now().getTime();
  const secret = v.password ? encryptSecret(deps.config.secret, v.password) : '';
  let id: number;
  try {
    // `record` writes the audit entry in the same transaction: both happen, or neither.
    id = await transaction(deps.storage, async (tx) => {
      const inserted = await tx
        .insertInto('dwh_authentications')
        .values({
          account_id: accountId,
          user_id: userId,
          name: v.name,
          host: v.host,
          // The route parsed the body: a number by then (the contract's input type, before coercion, says unknown).
          port: (v.port as number | undefined) ?? 5432,
          database_name: v.database,
          user_name: v.user,
          ssl_mode: v.ssl_mode ?? 'prefer',
          secret_enc: secret,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const newId = Number(inserted.id);
      await record(tx, newId);
      return newId;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(v.name);
    throw err;
  }
  return requireAuthentication(deps, accountId, id);
}

type Json = Record<string, unknown>;

/** The sessions that read through the authentication (their `config.in.svc_authentication_id`). */
async function sessionsUsing(ex: Executor, row: AuthRow): Promise<{ id: number; config: Json }[]> {
  return (await listBulkLoads(ex, row.account_id))
    .map((r) => ({ id: Number(r.id), config: readConfig(r.config_json, 'bulk_loads.config_json') }))
    .filter((r) => Number(r.config.in?.svc_authentication_id) === row.id);
}

/**
 * Changes an authentication: fields sent replace the stored ones; a new `password` is encrypted afresh
 * (an empty string clears it); no `password` keeps the stored one.
 */
export async function updateAuthentication(
  deps: AppDeps,
  row: AuthRow,
  v: AuthenticationUpdate,
  record: (tx: Executor, next: AuthRow) => Promise<void> = async () => {},
): Promise<AuthRow> {
  const secret =
    v.password === undefined ? row.secret_enc : v.password ? encryptSecret(deps.config.secret, v.password) : '';
  const now = deps.clock.now().getTime();
  const next: AuthRow = {
    ...row,
    name: v.name ?? row.name,
    host: v.host ?? row.host,
    port: v.port ?? row.port,
    database_name: v.database ?? row.database_name,
    user_name: v.user ?? row.user_name,
    ssl_mode: v.ssl_mode ?? row.ssl_mode,
    secret_enc: secret,
    updated_at: now,
  };
  try {
    await transaction(deps.storage, async (tx) => {
      await tx
        .updateTable('dwh_authentications')
        .set({
          name: next.name,
          host: next.host,
          port: next.port,
          database_name: next.database_name,
          user_name: next.user_name,
          ssl_mode: next.ssl_mode,
          secret_enc: secret,
          updated_at: now,
        })
        .where('id', '=', row.id)
        .where('account_id', '=', row.account_id)
        .execute();
      // Sessions show the connection they read from: keep their copy in step (a database chosen apart stays).
      for (const session of await sessionsUsing(tx, row)) {
        const input = session.config.in as Json;
        input.host = next.host;
        input.port = next.port;
        input.user = next.user_name;
        input.ssl_mode = next.ssl_mode;
        if (input.database === row.database_name) input.database = next.database_name;
        await setBulkLoadConfig(tx, { id: session.id, account_id: row.account_id }, session.config);
      }
      await record(tx, next);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(v.name);
    throw err;
  }
  return requireAuthentication(deps, row.account_id, row.id);
}

/** Who uses an authentication: integrations (with the e-mail of the user who owns each) and other sessions. */
export interface AuthenticationUse {
  integrations: { id: number; name: string; owner: string | null }[];
  bulk_loads: string[];
}

async function authenticationUse(deps: AppDeps, row: AuthRow): Promise<AuthenticationUse> {
  const integrations = await many<
    Pick<Row<'dwh_integrations'>, 'id' | 'name' | 'config_json'> & { email: string | null }
  >(
    deps.storage.db,
    sql`SELECT i.id, i.name, i.config_json, ${userColumnOf('email', 'i.user_id', 'i.account_id')} AS email
        FROM dwh_integrations i
        WHERE i.account_id = ${row.account_id} ORDER BY i.name`,
  );
  const sessions = await listBulkLoads(deps.storage.db, row.account_id);
  const uses = (id: unknown) => Number(id) === row.id;
  return {
    integrations: integrations
      .filter((i) => uses(readConfigs(i.config_json).basic_configs.svc_authentication_id))
      .map((i) => ({ id: Number(i.id), name: i.name, owner: i.email })),
    bulk_loads: sessions
      .filter(
        (s) =>
          s.integration_id === null &&
          uses(readConfig(s.config_json, 'bulk_loads.config_json').in?.svc_authentication_id),
      )
      .map((s) => s.name),
  };
}

/** Deletes an authentication nothing uses; otherwise 409 naming who uses it (and `used_by` in the body). */
export async function deleteAuthentication(
  deps: AppDeps,
  row: AuthRow,
  record: (tx: Executor) => Promise<void> = async () => {},
): Promise<void> {
  const use = await authenticationUse(deps, row);
  const names = [
    ...use.integrations.map((i) => `the integration "${i.name}"${i.owner ? ` of ${i.owner}` : ''}`),
    ...use.bulk_loads.map((n) => `the bulk load session "${n}"`),
  ];
  if (names.length > 0) {
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
    throw conflict(
      `The authentication "${row.name}" is used by ${shown}; change them to use another authentication, or delete them, first.`,
      { used_by: use },
    );
  }
  await transaction(deps.storage, async (tx) => {
    await tx
      .deleteFrom('dwh_authentications')
      .where('id', '=', row.id)
      .where('account_id', '=', row.account_id)
      .execute();
    await record(tx);
  });
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
