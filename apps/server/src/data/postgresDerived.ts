import { randomBytes } from 'node:crypto';
import type { AppDeps } from '../platform/context';
import { customerSchema, type Executor, many, one, pgIdentifier, sql, transaction } from '../platform/storage';
import type { DerivedSetRef, DerivedSets, DerivedSource } from './derived';

/**
 * Derived sets on PostgreSQL (derived.ts): one schema each, `<kind>_<id>` (ids never change and are unique
 * across accounts). A build runs in one transaction: a new schema put first in `search_path` (so the
 * build's unqualified tables land there while the control tables stay reachable), the statements, ANALYZE
 * (the tables are new, and counts plan better with statistics), the caller's `publish`, then the old schema
 * dropped and the new one renamed over it. PostgreSQL's DDL is transactional, so readers see the old
 * version until the commit and the new one after; a failed build leaves nothing behind.
 */

export const derivedSchema = (set: DerivedSetRef) => `${set.kind}_${set.id}`;

const q = (name: string) => `"${name}"`;

/** Puts `schema` first in the transaction's search_path, keeping the control tables reachable. */
function searchFirst(ex: Executor, schema: string) {
  return sql`SELECT set_config('search_path', ${`${q(schema)}, `} || current_setting('search_path'), true)`.execute(ex);
}

async function checkSources(ex: Executor, sources: DerivedSource[]): Promise<void> {
  for (const { database, table } of sources) {
    const found = await one(
      ex,
      sql`SELECT 1 AS found FROM pg_tables WHERE schemaname = ${customerSchema(database.id)}
            AND tablename = ${pgIdentifier(table)}`,
    );
    if (!found) throw new Error(`The table "${database.name}.${table}" has no rows yet; import data into it first.`);
  }
}

export function postgresDerived(deps: AppDeps): DerivedSets {
  return {
    dialect: {
      ...deps.storage.dialect,
      numberType: 'NUMERIC',
      indexes: true,
      fingerprint: (key) =>
        `count(*) || ':' || COALESCE(bit_xor(hashtextextended(${key}, 0)), 0) || ':' ||
         COALESCE(sum(hashtextextended(${key}, 1)), 0)`,
    },
    buildsFromServer: false,
    build(set, sources, fn, publish) {
      const schema = derivedSchema(set);
      const temp = `${schema}_${randomBytes(4).toString('hex')}`;
      return transaction(deps.storage, async (tx) => {
        await checkSources(tx, sources);
        await sql.raw(`CREATE SCHEMA ${q(temp)}`).execute(tx);
        await searchFirst(tx, temp);
        const result = await fn({
          ex: tx,
          source: (database, table) => `${q(customerSchema(database.id))}.${q(pgIdentifier(table))}`,
        });
        const tables = await many<{ name: string }>(
          tx,
          sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = ${temp}`,
        );
        for (const { name } of tables) await sql.raw(`ANALYZE ${q(temp)}.${q(name)}`).execute(tx);
        await publish(tx, result);
        await sql.raw(`DROP SCHEMA IF EXISTS ${q(schema)} CASCADE`).execute(tx);
        await sql.raw(`ALTER SCHEMA ${q(temp)} RENAME TO ${q(schema)}`).execute(tx);
        return result;
      });
    },

    read(set, fn) {
      const schema = derivedSchema(set);
      return transaction(deps.storage, async (tx) => {
        await sql`SET TRANSACTION READ ONLY`.execute(tx);
        const found = await one(tx, sql`SELECT 1 AS found FROM pg_namespace WHERE nspname = ${schema}`);
        if (!found) return null;
        await searchFirst(tx, schema);
        return { value: await fn(tx) };
      });
    },

    async remove(set) {
      await sql.raw(`DROP SCHEMA IF EXISTS ${q(derivedSchema(set))} CASCADE`).execute(deps.storage.db);
    },
  };
}
