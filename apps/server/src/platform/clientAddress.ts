import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address: the socket's peer, unless that peer is a trusted proxy (`SVC_TRUSTED_PROXIES`),
 * in which case the nearest address of `X-Forwarded-For` that is not itself a trusted proxy. Without the
 * setting X-Forwarded-For is never read: any client can write it. Used by the sign-in and key throttles
 * and for td-js-sdk's `td_ip`.
 */
export function clientAddress(c: Context, trusted?: BlockList | null): string {
  let peer: string;
  try {
    peer = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
  if (!trusted || !isTrusted(trusted, peer)) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  // Each proxy appends the address it received from, so the nearest untrusted entry is the client.
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) return peer;
    if (!isTrusted(trusted, hop)) return hop;
  }
  return hops[0] ?? peer;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6 && address.toLowerCase().startsWith('::ffff:') && isIP(address.slice(7)) === 4) {
    return list.check(address.slice(7), 'ipv4');
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * `SVC_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges of the reverse proxies in front of the
 * service (e.g. `127.0.0.1,10.0.0.0/8`). Unset: none. A bad entry stops the start with its text.
 */
export function trustedProxiesFromEnv(raw: string | undefined): BlockList | null {
  if (raw === undefined || raw.trim() === '') return null;
  const list = new BlockList();
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const prefix = bits === undefined ? null : Number(bits);
    const max = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== null && (!Number.isInteger(prefix) || prefix < 0 || prefix > max))
    ) {
      throw new Error(
        `SVC_TRUSTED_PROXIES must list IP addresses or CIDR ranges separated by commas, not "${entry.slice(0, 60)}".`,
      );
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === null) list.addAddress(address as string, type);
    else list.addSubnet(address as string, prefix, type);
  }
  return list;
}
