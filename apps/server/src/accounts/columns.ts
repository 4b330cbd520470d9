import { dialectOf, type Executor, one, type RawBuilder, sql } from '../platform/storage';

/**
 * What other features' statements read of accounts' tables, written here, where the tables are: a user's
 * column as a scalar subquery by id (a list of journeys, jobs or schedules names their owners in one query,
 * and a missing user reads as NULL, as the LEFT JOINs it replaces did), and the lock on an account's row.
 */

type UserColumn = 'name' | 'email' | 'administrator';

/**
 * `(SELECT <column> FROM users WHERE id = <userIdRef>)`, and of the account of `accountIdRef` when given: both
 * are columns of the outer statement.
 */
export function userColumnOf(column: UserColumn, userIdRef: string, accountIdRef?: string): RawBuilder<unknown> {
  const ofAccount = accountIdRef ? sql` AND users.account_id = ${sql.ref(accountIdRef)}` : sql``;
  return sql`(SELECT ${sql.ref(`users.${column}`)} FROM users WHERE users.id = ${sql.ref(userIdRef)}${ofAccount})`;
}

/** The ids of the account's users named `name`, for `… IN (…)`. */
export function userIdsNamed(accountId: number, name: string): RawBuilder<unknown> {
  return sql`(SELECT id FROM users WHERE account_id = ${accountId} AND name = ${name})`;
}

/** Locks an account's row until the transaction ends (FOR UPDATE where the backend has it). */
export async function lockAccountRow(ex: Executor, accountId: number): Promise<void> {
  await one(ex, sql`SELECT id FROM accounts WHERE id = ${accountId}${sql.raw(dialectOf(ex).forUpdate)}`);
}
