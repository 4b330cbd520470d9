import { bulkLoadJob, bulkLoadSession } from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Bulk load sessions (read only here): the list, one session, and the jobs it ran (newest first). */

const bulkLoadKeys = {
  all: ['bulk-loads'] as const,
  list: () => [...bulkLoadKeys.all, 'list'] as const,
  session: (name: string) => [...bulkLoadKeys.all, 'session', name] as const,
  jobs: (name: string) => [...bulkLoadKeys.session(name), 'jobs'] as const,
};

const enc = encodeURIComponent;
const sessions = bulkLoadSession.array();
const jobs = bulkLoadJob.array();

export const bulkLoadsQueryOptions = () =>
  queryOptions({
    queryKey: bulkLoadKeys.list(),
    queryFn: ({ signal }) => api.get('/v3/bulk_loads', sessions, { signal }),
  });

export const bulkLoadQueryOptions = (name: string) =>
  queryOptions({
    queryKey: bulkLoadKeys.session(name),
    queryFn: ({ signal }) => api.get(`/v3/bulk_loads/${enc(name)}`, bulkLoadSession, { signal }),
  });

const unfinished = (status: string) => status === 'queued' || status === 'running';

export const bulkLoadJobsQueryOptions = (name: string) =>
  queryOptions({
    queryKey: bulkLoadKeys.jobs(name),
    queryFn: ({ signal }) => api.get(`/v3/bulk_loads/${enc(name)}/jobs`, jobs, { signal }),
    refetchInterval: (query) => (query.state.data?.some((j) => unfinished(j.status)) ? 2000 : false),
  });
