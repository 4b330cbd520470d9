/**
 * Result connection URLs may carry credentials: `scheme://user:password@host/...`, a key alone as the
 * user (`td://<apikey>@/db/table`), or query parameters such as `apikey=` and `password=`. They are
 * stored as given and shown only masked.
 */

export const MASK = '***';

/** Query parameter names whose values are secrets. */
const SECRET_PARAM =
  /^(api_?key|apikey|password|passwd|pass|pwd|secret|token|access_?token|secret_?key|.*_secret|.*_key|.*_token|.*_password)$/i;

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)/i;

function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=${MASK}` : pair;
    })
    .join('&');
}

/** The URL with every credential replaced by `***`; everything else as stored. */
export function maskUrl(url: string): string {
  let out = url;
  const m = USERINFO.exec(out);
  if (m) {
    const scheme = m[1] as string;
    const userinfo = (m[2] as string).slice(0, -1);
    const colon = userinfo.indexOf(':');
    // With a password the user name stays; a lone user part is a key (td://KEY@/...), so it goes.
    const masked = userinfo === '' ? '' : colon >= 0 ? `${userinfo.slice(0, colon)}:${MASK}` : MASK;
    out = `${scheme}${masked}@${out.slice(m[0].length)}`;
  }
  const q = out.indexOf('?');
  if (q >= 0) {
    const hash = out.indexOf('#', q);
    const end = hash < 0 ? out.length : hash;
    out = `${out.slice(0, q + 1)}${maskQuery(out.slice(q + 1, end))}${out.slice(end)}`;
  }
  return out;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Host names and literal addresses an outbound connection must not reach (DESIGN §6). */
function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '0.0.0.0' || h === '::' || h === '::1') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  return /^(fc|fd|fe80)/.test(h) || h.startsWith('::ffff:');
}

/**
 * Why a URL cannot be a result connection, or null when it can. `allowPrivate` is the operator's
 * SVC_DELIVERY_ALLOW_PRIVATE_ADDRESSES, so a connection accepted here is also sent to.
 */
export function urlProblem(url: string, allowPrivate = false): string | null {
  if (url.length > 2048) return 'The "url" is longer than 2048 characters.';
  if (!SCHEME.test(url))
    return 'The "url" must start with a scheme, e.g. "td://@/database/table" or "s3://bucket/path".';
  if (/[\s\p{Cc}]/u.test(url)) return 'The "url" must not contain spaces or control characters.';
  const afterScheme = url.replace(SCHEME, '');
  const authority = (afterScheme.split(/[/?#]/)[0] ?? '').replace(/^[^@]*@/, '');
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : authority.replace(/:\d*$/, '');
  if (host && !allowPrivate && isPrivateHost(host)) {
    return `The "url" points at ${host}, a loopback or private address: result outputs may only go to public hosts.`;
  }
  return null;
}
