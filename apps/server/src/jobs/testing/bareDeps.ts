import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountWithAdmin, type NewAccount } from '../../accounts';
import { STRICT_OUTBOUND } from '../../platform/addressPolicy';
import { ManualClock } from '../../platform/clock';
import type { AppDeps } from '../../platform/context';
import { memoryLogger } from '../../platform/logger';
import { openTestStorage } from '../../testing/storage';

/**
 * The storage of a test (SQLite, or PostgreSQL with SVC_TEST_BACKEND=postgres) with one account, and no app
 * around it: for the parts of jobs that run on the storage alone (several runners as nodes, the result store).
 */
export async function bareDeps(): Promise<{ deps: AppDeps; admin: NewAccount; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-jobs-'));
  const storage = await openTestStorage(dataDir);
  const deps: AppDeps = {
    storage,
    config: {
      port: 0,
      dataDir,
      secret: 'test-secret-0123456789',
      consoleDir: null,
      seed: {},
      sessionIdleMs: 3_600_000,
      outbound: STRICT_OUTBOUND,
    },
    clock: new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0)),
    logger: memoryLogger(),
  };
  const admin = await createAccountWithAdmin(deps, {
    accountName: 'Jobs',
    email: 'admin@jobs.test',
    password: 'correct horse battery',
  });
  return {
    deps,
    admin,
    close: async () => {
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
