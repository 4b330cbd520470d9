import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { clientAddress } from '../platform/clientAddress';
import type { AppDeps } from '../platform/context';

/**
 * td-js-sdk's placeholders, filled in as the original service does: a record value that is exactly the
 * text `td_ip` becomes the caller's address (platform/clientAddress.ts, which honours
 * `SVC_TRUSTED_PROXIES`), and `td_global_id` becomes a server-issued id kept in a long-lived cookie
 * (decision 0019). Only top-level values are looked at, whatever their key.
 */

const GLOBAL_ID_COOKIE = '_td_global';
/** 400 days, the longest lifetime browsers keep a cookie. */
const GLOBAL_ID_MAX_AGE = 400 * 24 * 60 * 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface Placeholders {
  /** The record with its placeholders filled in (a copy when anything changed). */
  fill(record: Record<string, unknown>): Record<string, unknown>;
  /** Sets the global id cookie on the response when a record used it. */
  finish(): void;
}

/** The browser's global id: the one its `_td_global` cookie carries, else a new one. */
export function globalIdOf(c: Context): string {
  const sent = getCookie(c, GLOBAL_ID_COOKIE);
  return sent && UUID.test(sent) ? sent : randomUUID();
}

/** Keeps the global id in the browser for 400 days (td_global_id placeholders, td-js-sdk fetchGlobalID). */
export function setGlobalIdCookie(deps: AppDeps, c: Context, globalId: string): void {
  const secure = new URL(c.req.url).protocol === 'https:' || (deps.config.publicUrl ?? '').startsWith('https:');
  // A third-party cookie: the SDK posts from the customer's site with credentials.
  setCookie(c, GLOBAL_ID_COOKIE, globalId, {
    path: '/',
    maxAge: GLOBAL_ID_MAX_AGE,
    httpOnly: true,
    ...(secure ? { secure: true, sameSite: 'None' as const } : { sameSite: 'Lax' as const }),
  });
}

export function placeholders(deps: AppDeps, c: Context): Placeholders {
  let address: string | null = null;
  let globalId: string | null = null;
  return {
    fill(record) {
      let out: Record<string, unknown> | null = null;
      for (const key in record) {
        const value = record[key];
        if (value === 'td_ip') {
          address ??= clientAddress(c, deps.config.trustedProxies);
          out ??= { ...record };
          out[key] = address;
        } else if (value === 'td_global_id') {
          globalId ??= globalIdOf(c);
          out ??= { ...record };
          out[key] = globalId;
        }
      }
      return out ?? record;
    },
    finish() {
      if (globalId !== null) setGlobalIdCookie(deps, c, globalId);
    },
  };
}
