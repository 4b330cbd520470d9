import { createHash } from 'node:crypto';
import type pg from 'pg';
import { FUNCTIONS_SCHEMA } from './functions';

/**
 * The role a query runs as: one NOLOGIN role per customer schema that may read that schema's tables (also
 * tables created later, through default privileges) and call the query functions, and nothing else: no other
 * schema, not the control tables in `public`. The service's own user is made a member so it can
 * `SET LOCAL ROLE` to it inside a query's transaction.
 */

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `svc_read_<schema>`, shortened with a hash where PostgreSQL's 63-byte limit needs it. */
export function readRoleName(schema: string): string {
  const name = `svc_read_${schema}`;
  if (Buffer.byteLength(name) <= 63) return name;
  const hash = createHash('sha256').update(schema).digest('hex').slice(0, 12);
  return `svc_read_${Buffer.from(schema)
    .subarray(0, 36)
    .toString('utf8')
    .replace(/\uFFFD/g, '')}_${hash}`;
}

/**
 * Creates the read role of `schema` if needed and (re)grants what it may do. Idempotent, and safe when two
 * nodes do it at once (a transaction-level advisory lock serialises the grants). Default privileges cover
 * tables later created by the user running this, which must be the user that creates customer tables.
 */
export async function ensureReadRole(client: pg.ClientBase, schema: string): Promise<string> {
  const role = readRoleName(schema);
  const r = quoteIdent(role);
  const s = quoteIdent(schema);
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('svc_read_roles'))");
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (exists.rowCount === 0) await client.query(`CREATE ROLE ${r} NOLOGIN`);
    await client.query(`GRANT ${r} TO CURRENT_USER`);
    await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO ${r}`);
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT ON TABLES TO ${r}`);
    await client.query(`GRANT USAGE ON SCHEMA ${FUNCTIONS_SCHEMA} TO ${r}`);
    await client.query(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${FUNCTIONS_SCHEMA} TO ${r}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${FUNCTIONS_SCHEMA} TO ${r}`);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
  return role;
}
