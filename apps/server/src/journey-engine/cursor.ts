import { badRequest } from '../platform/errors';

/**
 * Keyset cursors of the engine's lists (Profiles, Deliveries): the last row's key, base64url. A cursor is
 * opaque to callers; one the list did not give is a 400 saying what to send instead.
 */

/** The longest key a cursor may carry (profile keys are parent segment key values). */
const MAX_CURSOR_KEY = 1024;

export const cursorOf = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

/**
 * The key a cursor carries, checked: canonical base64url, not empty, at most 1,024 characters once decoded,
 * and, when `valid` is given, a key this list can have. `param` names the query parameter in the message.
 */
export function cursorValue(param: string, cursor: string, valid?: (key: string) => boolean): string {
  const key = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (key === '' || key.length > MAX_CURSOR_KEY || cursorOf(key) !== cursor || (valid && !valid(key))) {
    throw badRequest(
      `"${param}" is "${cursor.slice(0, 100)}", which is not a cursor of this list; pass meta.next of the page before as it is, or leave "${param}" out for the first page.`,
    );
  }
  return key;
}
