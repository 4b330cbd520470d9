import { createServer } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { startTestPostgres } from '../../dwh/testing/postgres';
import { freshTestDatabase } from '../../testing/storage';
import { startTcpProxy } from '../../testing/tcpProxy';
import { isStorageUnavailable, openStorage, StorageUnavailable, sql } from './index';
import { many, one, run, transaction } from './query';

const server = startTestPostgres();
process.env.SVC_TEST_PG_URL ??= server.url;
afterAll(() => server.stop());

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('opening PostgreSQL', () => {
  test('a server that is not there: one clear line naming where, and no password', async () => {
    const port = await closedPort();
    const url = `postgres://svc:very-secret-pw@127.0.0.1:${port}/svc`;
    const err = await openStorage({ backend: 'postgres', url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageUnavailable);
    const message = (err as Error).message;
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message).toContain('cannot be reached');
    expect(message).not.toContain('very-secret-pw');
  });

  test('wrong credentials: says the user name or password was refused, without the password', async () => {
    const u = new URL(server.url);
    u.password = 'not-the-password';
    const err = await openStorage({ backend: 'postgres', url: u.toString() }).catch((e: unknown) => e);
    const message = (err as Error).message;
    expect(message).toContain('refused the user name or password');
    expect(message).toContain(u.hostname);
    expect(message).not.toContain('not-the-password');
  });
});

describe('the PostgreSQL backend', () => {
  test('binds parameters, returns numbers for BIGINT counts, and rolls a failed transaction back', async () => {
    const db = await freshTestDatabase();
    const storage = await openStorage({ backend: 'postgres', url: db.url });
    try {
      const ex = storage.db;
      await run(ex, sql`CREATE TABLE t (id BIGINT PRIMARY KEY, name TEXT NOT NULL)`);
      await run(ex, sql`INSERT INTO t VALUES (${1}, ${"it's"}), (${2}, ${'b'})`);
      const failed = await transaction(storage, async (tx) => {
        await run(tx, sql`INSERT INTO t VALUES (${3}, ${'c'})`);
        await run(tx, sql`INSERT INTO t VALUES (${1}, ${'again'})`);
      }).catch((e: unknown) => e);
      expect((failed as { code?: string }).code).toBe('23505');
      expect(await one<{ n: number }>(ex, sql`SELECT COUNT(*) AS n FROM t`)).toEqual({ n: 2 });
      expect(await many<{ name: string }>(ex, sql`SELECT name FROM t WHERE id = ${1}`)).toEqual([{ name: "it's" }]);
    } finally {
      await storage.close();
      await db.drop();
    }
  });

  test('the database going away: statements fail as unavailable, and work again once it is back', async () => {
    const db = await freshTestDatabase();
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const storage = await openStorage({ backend: 'postgres', url: viaProxy.toString() });
    try {
      await run(storage.db, sql`CREATE TABLE kept (n BIGINT)`);
      await run(storage.db, sql`INSERT INTO kept VALUES (${1})`);
      await proxy.cut();
      const err = await one(storage.db, sql`SELECT n FROM kept`).catch((e: unknown) => e);
      expect(isStorageUnavailable(err)).toBe(true);
      await proxy.restore();
      expect(await many(storage.db, sql`SELECT n FROM kept`)).toEqual([{ n: 1 }]);
    } finally {
      await storage.close();
      await proxy.close();
      await db.drop();
    }
  });
});
