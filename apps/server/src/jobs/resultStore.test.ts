import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAccount } from '../accounts';
import type { AppDeps } from '../platform/context';
import { databaseResultStore, PART_BYTES, type StoredResult } from './resultStore';
import { bareDeps } from './testing/bareDeps';

let deps: AppDeps;
let admin: NewAccount;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ deps, admin, close } = await bareDeps());
});

afterEach(() => close());

async function bytesOf(stored: StoredResult, start: number, end: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stored.read(start, end)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('results kept in the database (PostgreSQL backend)', () => {
  it('moves the files into parts and serves any range of them, then forgets them', async () => {
    const job = { id: 7, account_id: admin.accountId, result_path: 'results/x/7.msgpack' };
    const msgpack = randomBytes(2 * PART_BYTES + 123);
    const gzip = randomBytes(10);
    const files = { msgpack: join(deps.config.dataDir, '7.msgpack'), gzip: join(deps.config.dataDir, '7.msgpack.gz') };
    writeFileSync(files.msgpack, msgpack);
    writeFileSync(files.gzip, gzip);
    const store = databaseResultStore(deps);
    await store.keep(job, files);
    expect(existsSync(files.msgpack) || existsSync(files.gzip)).toBe(false);

    const stored = (await store.open(job, 'msgpack')) as StoredResult;
    expect(stored.size).toBe(msgpack.length);
    expect((await bytesOf(stored, 0, msgpack.length - 1)).equals(msgpack)).toBe(true);
    // A range across a part boundary, one inside a part, and the last byte.
    const across = [PART_BYTES - 5, PART_BYTES + 4] as const;
    expect((await bytesOf(stored, ...across)).equals(msgpack.subarray(across[0], across[1] + 1))).toBe(true);
    expect((await bytesOf(stored, 10, 19)).equals(msgpack.subarray(10, 20))).toBe(true);
    const last = msgpack.length - 1;
    expect((await bytesOf(stored, last, last)).equals(msgpack.subarray(last))).toBe(true);
    const gz = (await store.open(job, 'gzip')) as StoredResult;
    expect((await bytesOf(gz, 0, gz.size - 1)).equals(gzip)).toBe(true);

    await store.remove(job, files);
    expect(await store.open(job, 'msgpack')).toBeNull();
  });

  it('keeps an empty result as an empty file', async () => {
    const job = { id: 8, account_id: admin.accountId, result_path: 'results/x/8.msgpack' };
    const files = { msgpack: join(deps.config.dataDir, '8.msgpack'), gzip: join(deps.config.dataDir, '8.msgpack.gz') };
    writeFileSync(files.msgpack, Buffer.alloc(0));
    writeFileSync(files.gzip, Buffer.alloc(0));
    const store = databaseResultStore(deps);
    await store.keep(job, files);
    expect((await store.open(job, 'msgpack'))?.size).toBe(0);
  });
});
