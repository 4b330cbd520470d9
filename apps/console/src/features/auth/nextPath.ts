export const LOGIN_PATH = '/login';

const isLoginPath = (path: string) => path === LOGIN_PATH || /^\/login[?#/]/.test(path);

/** The login URL that returns to `path` afterwards (`?next=`), or plain /login for the home page. */
export function loginUrlFor(path: string): string {
  if (path === '/' || isLoginPath(path)) return LOGIN_PATH;
  return `${LOGIN_PATH}?next=${encodeURIComponent(path)}`;
}

/**
 * Where to go after signing in. Only a path of this console is followed: `//host`, `/\host` or a full URL
 * would let a crafted link send the user to another site right after they typed their password.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (isLoginPath(next)) return '/';
  return next;
}
