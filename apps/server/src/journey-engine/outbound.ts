import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Outbound requests to hosts chosen by users (webhook deliveries) must not reach the service's own
 * network (DESIGN §6): loopback, private, link-local, carrier-grade NAT and unique-local addresses are
 * refused unless the operator allows them. The host name is resolved and every address it has is checked.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::ffff:0:0', 96],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why the URL may not be called (not http(s), or a private address), or null when it may. */
export async function outboundProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'The webhook URL is not a valid URL.';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return `Webhooks are called over HTTPS; "${parsed.protocol}" URLs are not supported.`;
  }
  if (allowPrivate) return null;
  if (parsed.protocol !== 'https:') return 'Webhooks must use HTTPS.';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The webhook host "${host}" could not be resolved.`;
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    return `The webhook host "${host}" is a loopback or private address; deliveries only go to public hosts unless the operator allows private ones.`;
  }
  return null;
}
