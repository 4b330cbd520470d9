import { afterAll, describe, expect, it } from 'vitest';
import { changingDns } from '../testing/changingDns';
import { type ConnectionSpec, connect, withConnection } from './connection';
import { startTestPostgres } from './testing/postgres';

/**
 * Warehouse connections against a real PostgreSQL on loopback, with a resolver standing in for DNS: the
 * socket connects to the address the policy approved when it connected, not to a second lookup of its own.
 */

const server = startTestPostgres();
afterAll(() => server.stop());

const login = new URL(server.url);
const spec = (host: string): ConnectionSpec => ({
  host,
  port: server.port,
  database: 'postgres',
  user: decodeURIComponent(login.username),
  password: decodeURIComponent(login.password),
  ssl_mode: 'disable',
});

describe('warehouse connections and DNS', () => {
  it('connects through the resolver the policy uses', async () => {
    const dns = changingDns('127.0.0.1', '127.0.0.1');
    const outbound = { allowPrivateAddresses: false, allowWarehouseLoopback: true, resolve: dns.resolve };
    const answer = await withConnection(spec('warehouse.internal.test'), { outbound }, (c) =>
      c.query('SELECT 1 AS one'),
    );
    expect(answer.rows).toEqual([{ one: '1' }]);
    expect(dns.asked).toEqual(['warehouse.internal.test', 'warehouse.internal.test']);
  });

  it('refuses a name that points at loopback by the time it connects, though it was private when checked', async () => {
    const dns = changingDns('10.20.30.40', '127.0.0.1');
    const outbound = { allowPrivateAddresses: false, allowWarehouseLoopback: false, resolve: dns.resolve };
    await expect(connect(spec('warehouse.rebind.test'), { outbound })).rejects.toThrow(
      /^The host "warehouse\.rebind\.test" is a loopback address, which this server does not connect to unless the operator sets SVC_DWH_ALLOW_LOOPBACK=1/,
    );
    expect(dns.asked).toEqual(['warehouse.rebind.test', 'warehouse.rebind.test']);
  });
});
