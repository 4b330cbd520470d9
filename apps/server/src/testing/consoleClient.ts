import { CONSOLE_HEADER, SESSION_COOKIE } from '@svc/contracts';
import type { Harness } from './harness';

/** Test helpers that call the app the way the console does: a session cookie, the console header, JSON. */

export interface ConsoleCallOptions {
  cookie?: string | null;
  json?: unknown;
  headers?: Record<string, string>;
  /** The socket peer address the request appears to come from. */
  address?: string;
  /** Leave out the console header (to test the CSRF guard). */
  noConsoleHeader?: boolean;
}

export function consoleCall(h: Harness, method: string, path: string, opts: ConsoleCallOptions = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (!opts.noConsoleHeader) headers[CONSOLE_HEADER] = '1';
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.json);
  }
  // @hono/node-server's getConnInfo reads the peer address from these bindings.
  const env = opts.address ? { incoming: { socket: { remoteAddress: opts.address } } } : undefined;
  return h.app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }, env);
}

/** The `name=value` part of the session cookie a response sets, or null. */
export function sessionCookieFrom(res: Response): string | null {
  const header = res.headers.get('set-cookie');
  const pair = header?.split(';')[0];
  return pair?.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1 ? pair : null;
}

export const PASSWORD = 'correct horse battery';

/** Signs in and returns the cookie to send back; fails the test if sign-in fails. */
export async function signIn(h: Harness, email = h.admin.email, password = PASSWORD): Promise<string> {
  const res = await consoleCall(h, 'POST', '/console-api/login', { json: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in failed with ${res.status}: ${await res.text()}`);
  const cookie = sessionCookieFrom(res);
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie;
}
