import type { AppDeps } from '../platform/context';
import { hashPassword, randomPassword } from '../platform/secrets';
import { transaction } from '../platform/storage';
import { createKey } from './keys';

export interface NewAccount {
  accountId: number;
  userId: number;
  email: string;
  password: string;
  masterKey: string;
  writeOnlyKey: string;
}

/** Creates an account with its owner (an administrator), a master and a write-only key. */
export async function createAccountWithAdmin(
  deps: AppDeps,
  opts: { accountName: string; email: string; password: string; userName?: string; masterKey?: string },
): Promise<NewAccount> {
  const { config, clock } = deps;
  const passwordHash = await hashPassword(opts.password);
  const now = clock.now().getTime();
  return transaction(deps.storage, async (tx) => {
    const account = await tx
      .insertInto('accounts')
      .values({ name: opts.accountName, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const accountId = Number(account.id);
    const user = await tx
      .insertInto('users')
      .values({
        account_id: accountId,
        name: opts.userName ?? 'admin',
        email: opts.email,
        first_name: 'Admin',
        administrator: 1,
        account_owner: 1,
        password_hash: passwordHash,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = Number(user.id);
    const master = await createKey(tx, config.secret, {
      accountId,
      userId,
      type: 'master',
      name: 'First master key',
      now,
      ...(opts.masterKey ? { fullKey: opts.masterKey } : {}),
    });
    const writeOnly = await createKey(tx, config.secret, {
      accountId,
      userId,
      type: 'write-only',
      name: 'First write-only key',
      now,
    });
    return {
      accountId,
      userId,
      email: opts.email,
      password: opts.password,
      masterKey: master.key,
      writeOnlyKey: writeOnly.key,
    };
  });
}

/**
 * On an empty control database, creates the demo account from the configuration's seed values or
 * generated ones. Returns what was created (to be shown once), or null when an account exists.
 */
export async function seedFirstAccount(deps: AppDeps): Promise<NewAccount | null> {
  const existing = await deps.storage.db
    .selectFrom('accounts')
    .select((s) => s.fn.countAll().as('n'))
    .executeTakeFirst();
  if (Number(existing?.n) > 0) return null;
  const { seed } = deps.config;
  return createAccountWithAdmin(deps, {
    accountName: 'Demo account',
    email: seed.email ?? 'admin@demo.local',
    password: seed.password ?? randomPassword(),
    ...(seed.apiKey ? { masterKey: seed.apiKey } : {}),
  });
}
