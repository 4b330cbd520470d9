import type { CustomerFilter } from '../api';

/**
 * How the Profiles tab asks for a page. Moving to the next page sends the cursor the page before answered
 * (`meta.next`, a keyset page: as fast at page 50,000 as at page 2); a page reached otherwise (a link, a jump
 * in the pager, a reload) is asked for by number.
 */

/** The cursors known for one filter: the `after` of page N is the `meta.next` of page N − 1. */
export interface PageCursors {
  /** The filter they belong to, without the page: another filter starts over. */
  filter: string;
  after: ReadonlyMap<number, string>;
}

export const filterKey = ({ stage, step, status, perPage }: CustomerFilter): string =>
  JSON.stringify([stage ?? null, step ?? null, status, perPage]);

/** The request for the filter's page: its cursor when known, else its number. */
export function pageRequest(filter: CustomerFilter, cursors: PageCursors): { page: number; after?: string } {
  const after = cursors.filter === filterKey(filter) ? cursors.after.get(filter.page) : undefined;
  return after === undefined || filter.page === 1 ? { page: filter.page } : { page: filter.page, after };
}

/** The cursors once page `page` of the filter answered `next` (null on the last page). */
export function withNext(cursors: PageCursors, filter: CustomerFilter, next: string | null): PageCursors {
  const key = filterKey(filter);
  const after = new Map(cursors.filter === key ? cursors.after : []);
  if (next === null || after.get(filter.page + 1) === next) {
    return cursors.filter === key ? cursors : { filter: key, after };
  }
  after.set(filter.page + 1, next);
  return { filter: key, after };
}
