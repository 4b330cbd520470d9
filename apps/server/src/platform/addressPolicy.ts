import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The one outbound address policy (DESIGN §6): every host a user can point the server at (activation
 * webhooks, result connections, warehouse hosts) is checked here, when it is saved and again when the
 * server connects. Literal addresses in any spelling (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`,
 * `[::ffff:127.0.0.1]`, NAT64 / 6to4 / IPv4-compatible forms) are normalised first; names are resolved and
 * every address they have is classified with `net.BlockList`:
 * - loopback: 127/8, ::1;
 * - private: RFC 1918, carrier-grade NAT (100.64/10), unique-local fc00::/7;
 * - special: every other IANA special-purpose range (unspecified, link-local with the cloud metadata
 *   service, documentation, benchmarking, multicast, reserved, broadcast, Teredo, discard-only, ...).
 *
 * What each kind of target may reach:
 * - webhooks, result connections and identity provider metadata URLs: public addresses only;
 *   `SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1` adds loopback and private ones (closed networks);
 * - warehouses: public and private addresses (self-hosted warehouses live there); `SVC_DWH_ALLOW_LOOPBACK=1`
 *   adds loopback (a warehouse on the same machine).
 * Special addresses are never reached. The two switches are read from the environment only in
 * `outboundSwitches` below.
 */

export type AddressClass = 'public' | 'loopback' | 'private' | 'special';

export type OutboundKind = 'webhook' | 'resultConnection' | 'idpMetadata' | 'warehouse';

/** The operator's switches (README "Configure"). */
export interface OutboundSwitches {
  /**
   * `SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1`: webhooks, result connections and IdP metadata URLs may reach
   * loopback and private hosts.
   */
  allowPrivateAddresses: boolean;
  /** `SVC_DWH_ALLOW_LOOPBACK=1`: warehouse authentications may point at loopback hosts. */
  allowWarehouseLoopback: boolean;
  /** How names are resolved: the system's resolver unless given (tests give one whose answers change). */
  resolve?: Resolve;
}

/** Every address a name has. */
export type Resolve = (name: string) => Promise<string[]>;

const systemResolve: Resolve = async (name) =>
  (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);

/** The only reader of the two environment switches. */
export function outboundSwitches(env: NodeJS.ProcessEnv): OutboundSwitches {
  return {
    allowPrivateAddresses: env.SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES === '1',
    allowWarehouseLoopback: env.SVC_DWH_ALLOW_LOOPBACK === '1',
  };
}

export const STRICT_OUTBOUND: OutboundSwitches = { allowPrivateAddresses: false, allowWarehouseLoopback: false };

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const LOOPBACK = blockList([['127.0.0.0', 8]], [['::1', 128]]);

const PRIVATE = blockList(
  [
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
  ],
  [['fc00::', 7]],
);

const SPECIAL = blockList(
  [
    ['0.0.0.0', 8],
    ['169.254.0.0', 16],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.31.196.0', 24],
    ['192.52.193.0', 24],
    ['192.88.99.0', 24],
    ['192.175.48.0', 24],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ],
  [
    ['::', 128],
    ['::', 96],
    ['64:ff9b::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['3fff::', 20],
    ['5f00::', 16],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ],
);

/** The 8 groups of an IPv6 address as numbers (the address is known to be valid). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = (dotted[1] as string).split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${(((b[0] as number) << 8) | (b[1] as number)).toString(16)}:${(((b[2] as number) << 8) | (b[3] as number)).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = part(head);
  if (tail === undefined) return front;
  const back = part(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if it carries one. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return v4(g[6] as number, g[7] as number);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6] as number, g[7] as number);
  if (g[0] === 0x2002) return v4(g[1] as number, g[2] as number);
  return null;
}

/** The class of a literal IP address. Anything that is not one is `special`. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'special';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (family === 6) {
    const inner = embeddedIpv4(address);
    // ::1 is loopback above; :: and ::0.0.0.x stay special.
    if (inner && !inner.startsWith('0.')) {
      const innerClass = classifyAddress(inner);
      return innerClass === 'public' ? 'special' : innerClass;
    }
  }
  if (PRIVATE.check(address, type)) return 'private';
  if (SPECIAL.check(address, type)) return 'special';
  return 'public';
}

/** One part of an IPv4 numeric shorthand: decimal, 0x hexadecimal or 0-led octal; NaN when none. */
function ipv4Part(text: string): number {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : Number.parseInt(text.slice(2), 16);
  if (/^0[0-7]+$/.test(text)) return Number.parseInt(text.slice(1), 8);
  if (/^(0|[1-9]\d*)$/.test(text)) return Number(text);
  return Number.NaN;
}

/**
 * The dotted IPv4 address a host written as numbers means (`127.1`, `2130706433`, `0x7f000001`,
 * `0177.0.0.1`), as the C library and URL parsers read it; null when the host is not such a number.
 */
export function ipv4Shorthand(host: string): string | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const values = parts.map(ipv4Part);
  if (values.some((v) => Number.isNaN(v))) return null;
  const last = values.pop() as number;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return null;
  let n = last;
  values.forEach((v, i) => {
    n += v * 256 ** (3 - i);
  });
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The literal address a host names (brackets, a trailing dot and numeric shorthands undone), or null. */
export function literalAddress(host: string): string | null {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (isIP(h)) return h;
  return ipv4Shorthand(h);
}

function allowed(kind: OutboundKind, cls: AddressClass, switches: OutboundSwitches): boolean {
  if (cls === 'public') return true;
  if (cls === 'special') return false;
  if (kind === 'warehouse') return cls === 'private' || switches.allowWarehouseLoopback;
  return switches.allowPrivateAddresses;
}

const WHAT: Record<OutboundKind, string> = {
  webhook: 'The webhook host',
  resultConnection: 'The "url" host',
  idpMetadata: 'The metadata URL host',
  warehouse: 'The host',
};

function refusal(kind: OutboundKind, host: string, cls: AddressClass): string {
  const what = `${WHAT[kind]} "${host}"`;
  if (kind === 'warehouse') {
    return cls === 'loopback'
      ? `${what} is a loopback address, which this server does not connect to unless the operator sets SVC_DWH_ALLOW_LOOPBACK=1. Use the warehouse's network address.`
      : `${what} is a link-local or reserved address, which this server never connects to. Use the warehouse's network address.`;
  }
  return cls === 'special'
    ? `${what} is a link-local or reserved address; outbound connections only go to public hosts.`
    : `${what} is a loopback or private address; outbound connections only go to public hosts unless the operator sets SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES=1.`;
}

/** When to resolve: `send` needs every name to resolve; at `save` a name that does not resolve yet may wait. */
export type Phase = 'save' | 'send';

/**
 * Why the server may not connect to this host for this kind of target, or null when it may. Literal
 * addresses and `localhost` are judged without DNS; other names are resolved and every address is checked.
 */
export async function hostProblem(
  host: string,
  kind: OutboundKind,
  switches: OutboundSwitches = STRICT_OUTBOUND,
  phase: Phase = 'send',
): Promise<string | null> {
  const shown = host.slice(0, 255);
  if (host.trim().replace(/\.$/, '') === '') return `${WHAT[kind]} is empty.`;
  let addresses: string[];
  try {
    addresses = await addressesOf(host, switches);
  } catch {
    if (phase === 'save') return null;
    return `${WHAT[kind]} "${shown}" could not be resolved: check its spelling.`;
  }
  return addressesProblem(addresses, shown, kind, switches);
}

/** The addresses a host means: literal addresses and `localhost` without DNS, other names resolved. */
async function addressesOf(host: string, switches: OutboundSwitches): Promise<string[]> {
  const literal = literalAddress(host);
  if (literal) return [literal];
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
  return (switches.resolve ?? systemResolve)(name);
}

function addressesProblem(
  addresses: string[],
  shown: string,
  kind: OutboundKind,
  switches: OutboundSwitches,
): string | null {
  for (const address of addresses) {
    const cls = classifyAddress(address);
    if (!allowed(kind, cls, switches)) return refusal(kind, shown, cls);
  }
  return null;
}

/** The error a pinned lookup fails a connection with when the policy refuses the name's addresses now. */
export class OutboundRefused extends Error {
  readonly code = 'ESVCREFUSED';
}

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets (net/tls `connect`, HTTP agents) that resolves the name, judges every address by
 * the policy and hands only approved addresses to the connection. Checking a URL and then letting the
 * socket resolve again would leave a gap: a name whose DNS answer changes in between (rebinding) would
 * reach an address that was never checked. Connecting through this lookup closes it.
 */
export function pinnedLookup(kind: OutboundKind, switches: OutboundSwitches = STRICT_OUTBOUND) {
  return (hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    const all = typeof options === 'object' && options?.all === true;
    addressesOf(hostname, switches).then(
      (addresses) => {
        const problem = addresses.length
          ? addressesProblem(addresses, hostname.slice(0, 255), kind, switches)
          : `${WHAT[kind]} "${hostname.slice(0, 255)}" has no address.`;
        if (problem) return callback(new OutboundRefused(problem), all ? [] : '');
        const found = addresses.map((address) => ({ address, family: isIP(address) }));
        if (all) return callback(null, found);
        const first = found[0] as { address: string; family: number };
        callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, all ? [] : ''),
    );
  };
}

const LABEL: Record<Exclude<OutboundKind, 'warehouse'>, string> = {
  webhook: 'The webhook URL',
  resultConnection: 'The "url"',
  idpMetadata: 'The metadata URL',
};

/** Schemes that read local files or run code: never a target. */
const LOCAL_SCHEMES = new Set(['file', 'data', 'blob', 'javascript', 'about', 'jar', 'netdoc', 'filesystem']);

/**
 * Why the server may not send to this URL, or null when it may. Webhooks and metadata URLs must be http(s)
 * (https unless private addresses are allowed); result connections may use any remote scheme but no local one
 * (`file:`, `data:`, ...). The host is checked with `hostProblem`; http(s) hosts are resolved, other
 * schemes' hosts are judged as written (they name a service, not something this server connects to).
 */
export async function urlProblem(
  url: string,
  kind: Exclude<OutboundKind, 'warehouse'>,
  switches: OutboundSwitches = STRICT_OUTBOUND,
  phase: Phase = 'send',
): Promise<string | null> {
  const label = LABEL[kind];
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (!scheme) return `${label} must start with a scheme, e.g. "https://".`;
  if (LOCAL_SCHEMES.has(scheme)) return `${label} may not use "${scheme}:"; it must point at a remote service.`;
  const web = scheme === 'http' || scheme === 'https';
  if (kind !== 'resultConnection') {
    const what = kind === 'webhook' ? 'Webhooks are called' : 'Identity provider metadata is fetched';
    if (!web) return `${what} over HTTPS; "${scheme}:" URLs are not supported.`;
    if (scheme !== 'https' && !switches.allowPrivateAddresses) {
      return `${kind === 'webhook' ? 'Webhooks' : 'The metadata URL'} must use HTTPS.`;
    }
  }
  let host: string;
  if (web) {
    try {
      host = new URL(url).hostname;
    } catch {
      return `${label} is not a valid URL.`;
    }
  } else {
    const authority = (
      url
        .slice(scheme.length + 1)
        .replace(/^\/\//, '')
        .split(/[/?#]/)[0] ?? ''
    ).replace(/^.*@/, '');
    host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '');
    if (host === '') return null;
    // Names of other schemes are not looked up (s3://bucket); literal addresses and localhost are judged.
    if (!literalAddress(host) && !/^(localhost|.*\.localhost)\.?$/i.test(host)) return null;
  }
  return hostProblem(host, kind, switches, phase);
}
