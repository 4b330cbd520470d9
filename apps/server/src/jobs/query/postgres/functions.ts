import type pg from 'pg';
import { TEXT_FUNCTIONS } from './textFunctions';
import { TIME_FUNCTIONS } from './timeFunctions';
import { TYPED_FUNCTIONS } from './typedFunctions';

/**
 * The Presto and TD functions PostgreSQL lacks, as SQL and PL/pgSQL functions in the schema `svc_fn`, created
 * once by `installQueryFunctions`. The translator (translate.ts) calls them fully qualified. Timestamps are
 * text as on SQLite (`2024-01-01 09:30:00.000`, optionally followed by a zone name); the zone, timestamp and
 * number patterns are the TypeScript ones (timeZones.ts, timeFormats.ts, casts.ts), so both backends read the
 * same text. Every function is SECURITY INVOKER and runs no dynamic SQL. Functions that catch errors (an
 * EXCEPTION block is a subtransaction) or switch TimeZone, and those calling them, are PARALLEL UNSAFE:
 * PostgreSQL's rules for parallel workers rule out both.
 */

export const FUNCTIONS_SCHEMA = 'svc_fn';

/**
 * Creates (or replaces) the query functions in `svc_fn`. Idempotent, and safe when two nodes start at once: a
 * transaction-level advisory lock serialises the replacements.
 */
export async function installQueryFunctions(client: pg.ClientBase): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('svc_fn.install'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${FUNCTIONS_SCHEMA}`);
    await client.query(TIME_FUNCTIONS + TEXT_FUNCTIONS + TYPED_FUNCTIONS);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}
