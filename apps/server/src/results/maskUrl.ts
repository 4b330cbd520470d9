import { type OutboundSwitches, urlProblem as outboundUrlProblem } from '../platform/addressPolicy';

/**
 * Result connection URLs may carry credentials: `scheme://user:password@host/...`, a key alone as the
 * user (`td://<apikey>@/db/table`), or query parameters such as `apikey=` and `password=`. They are
 * stored as given and shown only masked.
 */

const MASK = '***';

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

/**
 * Why a URL cannot be a result connection, or null when it can: its form here, its host by the platform's
 * one outbound address policy (loopback, private and reserved hosts in any spelling; local schemes such
 * as `file:`). At `save` a name that does not resolve yet may pass; `send` refuses it.
 */
export async function urlProblem(
  url: string,
  switches: OutboundSwitches | undefined,
  phase: 'save' | 'send' = 'save',
): Promise<string | null> {
  if (url.length > 2048) return 'The "url" is longer than 2048 characters.';
  if (!SCHEME.test(url)) {
    // `file:/etc/passwd` and other local schemes get the policy's reason.
    const local = /^[a-z][a-z0-9+.-]*:/i.test(url)
      ? await outboundUrlProblem(url, 'resultConnection', switches, phase)
      : null;
    return local ?? 'The "url" must start with a scheme, e.g. "td://@/database/table" or "s3://bucket/path".';
  }
  if (/[\s\p{Cc}]/u.test(url)) return 'The "url" must not contain spaces or control characters.';
  return outboundUrlProblem(url, 'resultConnection', switches, phase);
}
