import { describe, expect, it } from 'vitest';
import { classifyAddress, hostProblem, ipv4Shorthand, STRICT_OUTBOUND, urlProblem } from './addressPolicy';

const LOOPBACK_FORMS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '017700000001',
  '127.0.0.1.',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[2002:7f00:1::]',
  'localhost',
  'LOCALHOST.',
  'api.localhost',
];

describe('the outbound address policy', () => {
  it('reads IPv4 numeric shorthands as the C library does', () => {
    expect(ipv4Shorthand('127.1')).toBe('127.0.0.1');
    expect(ipv4Shorthand('2130706433')).toBe('127.0.0.1');
    expect(ipv4Shorthand('0x7f000001')).toBe('127.0.0.1');
    expect(ipv4Shorthand('0177.0.0.1')).toBe('127.0.0.1');
    expect(ipv4Shorthand('10.1.65535')).toBe('10.1.255.255');
    expect(ipv4Shorthand('4294967296')).toBeNull();
    expect(ipv4Shorthand('1.2.3.256')).toBeNull();
    expect(ipv4Shorthand('example.com')).toBeNull();
    expect(ipv4Shorthand('09.1.1.1')).toBeNull();
  });

  it('classifies every special range, mapped and embedded forms included', () => {
    const cases: [string, string][] = [
      ['8.8.8.8', 'public'],
      ['2606:4700::1111', 'public'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['2002:7f00:1::', 'loopback'],
      ['10.2.3.4', 'private'],
      ['172.31.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['fd00::1', 'private'],
      ['::ffff:10.0.0.1', 'private'],
      ['169.254.169.254', 'special'],
      ['::ffff:169.254.169.254', 'special'],
      ['0.0.0.0', 'special'],
      ['::', 'special'],
      ['fe80::1', 'special'],
      ['224.0.0.1', 'special'],
      ['255.255.255.255', 'special'],
      ['192.0.2.1', 'special'],
      ['198.18.0.1', 'special'],
      ['2001:db8::1', 'special'],
      ['2001:0:4136:e378::1', 'special'],
      ['ff02::1', 'special'],
      // A public IPv4 address wrapped in a translation form is still not reached that way.
      ['::ffff:8.8.8.8', 'special'],
      ['not an address', 'special'],
    ];
    for (const [address, cls] of cases) expect(classifyAddress(address), address).toBe(cls);
  });

  it('refuses every loopback form for webhooks and result connections at save and at send', async () => {
    for (const host of LOOPBACK_FORMS) {
      for (const phase of ['save', 'send'] as const) {
        expect(await urlProblem(`https://${host}/hook`, 'webhook', STRICT_OUTBOUND, phase), host).toMatch(
          /loopback or private/,
        );
        expect(await urlProblem(`http://${host}:8080/x`, 'resultConnection', STRICT_OUTBOUND, phase), host).toMatch(
          /loopback or private/,
        );
        expect(await urlProblem(`mysql://u:p@${host}:3306/db`, 'resultConnection', STRICT_OUTBOUND, phase)).toMatch(
          /loopback or private/,
        );
      }
    }
  });

  it('lets the operator switches open exactly what they name', async () => {
    const deliveries = { allowPrivateAddresses: true, allowWarehouseLoopback: false };
    const warehouses = { allowPrivateAddresses: false, allowWarehouseLoopback: true };
    expect(await urlProblem('http://127.1:9/in', 'webhook', deliveries, 'send')).toBeNull();
    expect(await urlProblem('https://192.168.0.4/in', 'webhook', deliveries, 'send')).toBeNull();
    // Link-local (the metadata service) stays closed whatever the switches.
    expect(await urlProblem('http://169.254.169.254/latest', 'webhook', deliveries, 'send')).toMatch(/reserved/);
    expect(await hostProblem('0x7f000001', 'warehouse', deliveries, 'send')).toMatch(/SVC_DWH_ALLOW_LOOPBACK/);
    expect(await hostProblem('0x7f000001', 'warehouse', warehouses, 'send')).toBeNull();
    expect(await hostProblem('10.0.0.5', 'warehouse', STRICT_OUTBOUND, 'send')).toBeNull();
    expect(await hostProblem('169.254.169.254', 'warehouse', warehouses, 'send')).toMatch(/link-local/);
    expect(await urlProblem('https://127.0.0.1/in', 'webhook', warehouses, 'send')).toMatch(/loopback/);
  });

  it('refuses schemes that make no sense: local ones everywhere, anything but http(s) for webhooks', async () => {
    expect(await urlProblem('file:///etc/passwd', 'resultConnection', STRICT_OUTBOUND, 'save')).toMatch(/"file:"/);
    expect(await urlProblem('file:/etc/passwd', 'webhook', STRICT_OUTBOUND, 'save')).toMatch(/"file:"/);
    expect(await urlProblem('data:text/plain,x', 'resultConnection', STRICT_OUTBOUND, 'save')).toMatch(/"data:"/);
    expect(await urlProblem('ftp://example.com/x', 'webhook', STRICT_OUTBOUND, 'save')).toMatch(/HTTPS/);
    expect(await urlProblem('http://example.com/x', 'webhook', STRICT_OUTBOUND, 'save')).toMatch(/must use HTTPS/);
    expect(await urlProblem('s3://bucket/path', 'resultConnection', STRICT_OUTBOUND, 'save')).toBeNull();
  });

  it('lets a name that does not resolve pass at save but not at send', async () => {
    const url = 'https://no-such-host.invalid/hook';
    expect(await urlProblem(url, 'webhook', STRICT_OUTBOUND, 'save')).toBeNull();
    expect(await urlProblem(url, 'webhook', STRICT_OUTBOUND, 'send')).toMatch(/could not be resolved/);
  });
});
