import { auditLogResponse } from '@svc/contracts';
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const auditKeys = {
  all: ['audit'] as const,
  list: () => [...auditKeys.all, 'list'] as const,
};

const PAGE = 50;

/** The account's audit log, newest first, a page at a time. */
export const auditLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      api.get(
        `/v3/account/audit_log?limit=${PAGE}${pageParam === null ? '' : `&before=${pageParam}`}`,
        auditLogResponse,
        { signal },
      ),
    getNextPageParam: (last) => last.next_before,
  });
