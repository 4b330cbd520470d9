import { type AuditFilter, auditLogResponse } from '@svc/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilter = {}) => [...auditKeys.all, 'list', filter] as const,
};

const PAGE = 50;

/** The query string of a filtered read: `actor=…&action=a,b&from=…&to=…`. */
export function auditQuery(filter: AuditFilter): URLSearchParams {
  const q = new URLSearchParams();
  if (filter.actor?.trim()) q.set('actor', filter.actor.trim());
  if (filter.action?.length) q.set('action', filter.action.join(','));
  if (filter.from) q.set('from', filter.from);
  if (filter.to) q.set('to', filter.to);
  return q;
}

/** The account's audit log, newest first, filtered, a page at a time. */
export const auditLogQueryOptions = (filter: AuditFilter = {}) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(filter),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const q = auditQuery(filter);
      q.set('limit', String(PAGE));
      if (pageParam !== null) q.set('before', String(pageParam));
      return api.get(`/v3/account/audit_log?${q}`, auditLogResponse, { signal });
    },
    getNextPageParam: (last) => last.next_before,
  });

/** The CSV export of every entry the filter matches (a download, sent with the session cookie). */
export const auditCsvUrl = (filter: AuditFilter) => {
  const q = auditQuery(filter).toString();
  return `/v3/account/audit_log.csv${q ? `?${q}` : ''}`;
};
