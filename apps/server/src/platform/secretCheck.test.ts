import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../testing/storage';
import { checkSecret, SecretMismatch } from './secretCheck';

let dir: string;
let storage: TestStorage;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-secret-'));
  storage = await openTestStorage(dir);
});
afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the secret the data was set up with', () => {
  it('is recorded by the first start, accepted again, and another one is refused naming SVC_SECRET', async () => {
    await checkSecret(storage, 'the-first-secret');
    // Another node (its own connection) with the same secret starts.
    const other = await storage.openAgain();
    try {
      await checkSecret(other, 'the-first-secret');
      const err = await checkSecret(other, 'another-secret').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SecretMismatch);
      expect((err as Error).message).toMatch(/Give every node, and every restart, the same SVC_SECRET/);
      expect((err as Error).message).not.toContain('another-secret');
      expect((err as Error).message).not.toContain('the-first-secret');
    } finally {
      await other.close();
    }
  });
});
