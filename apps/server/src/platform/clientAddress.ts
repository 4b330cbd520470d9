import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The socket's peer address. X-Forwarded-For is not trusted: any client can write it. */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
