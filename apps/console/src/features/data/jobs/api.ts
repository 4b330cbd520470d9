import { type JobStatus, jobIssued, jobKilled, jobList } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { isRunning, resourceKeys } from '../../../lib/resources';
import { fetchJsonLines } from '../shared/jsonLines';

/** Query keys and options of jobs: the filtered list, one job (polled while it runs), its result rows. */

export interface JobFilter {
  status?: JobStatus | undefined;
  type?: string | undefined;
  database?: string | undefined;
  /** The issuing user's name. */
  user?: string | undefined;
  page: number;
}

export const JOBS_PER_PAGE = 50;
/** Rows of a result the page holds; the downloads have all of them. */
export const RESULT_PREVIEW_ROWS = 10_000;

export { isRunning, jobQueryOptions } from '../../../lib/resources';

const jobKeys = {
  ...resourceKeys.jobs,
  list: (filter: JobFilter) => [...resourceKeys.jobs.lists(), filter] as const,
  result: (id: string) => [...resourceKeys.jobs.one(id), 'result'] as const,
};

export const jobsQueryOptions = (filter: JobFilter) =>
  queryOptions({
    queryKey: jobKeys.list(filter),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({
        from: String(filter.page * JOBS_PER_PAGE),
        to: String(filter.page * JOBS_PER_PAGE + JOBS_PER_PAGE - 1),
      });
      if (filter.status) params.set('status', filter.status);
      if (filter.type) params.set('type', filter.type);
      if (filter.database) params.set('database', filter.database);
      if (filter.user) params.set('user', filter.user);
      return api.get(`/v3/job/list?${params}`, jobList, { signal });
    },
    // Live status: quick while something on the page is unfinished, slower otherwise (new jobs appear).
    refetchInterval: (query) => (query.state.data?.jobs.some((j) => isRunning(j.status)) ? 1000 : 5000),
  });

/** The first rows of a successful job's result (arrays in column order). A result never changes. */
export const jobResultQueryOptions = (id: string) =>
  queryOptions({
    queryKey: jobKeys.result(id),
    queryFn: ({ signal }) =>
      fetchJsonLines(`/v3/job/result/${encodeURIComponent(id)}?format=json`, RESULT_PREVIEW_ROWS, signal).then((r) => ({
        rows: r.lines as unknown[][],
        truncated: r.truncated,
      })),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });

export const resultDownloadUrl = (id: string, format: 'csv' | 'tsv' | 'json' | 'msgpack.gz') =>
  `/v3/job/result/${encodeURIComponent(id)}?format=${format}${format === 'msgpack.gz' ? '' : '&header=true'}`;

export interface IssueQuery {
  database: string;
  query: string;
  /** presto (default) or hive. */
  engine?: string;
  /** Where the rows go as well: td://@/database/table[?mode=replace] or a result connection's name. */
  result?: string;
}

export function useIssueQuery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ database, query, engine = 'presto', result = '' }: IssueQuery) =>
      api.post(`/v3/job/issue/${engine}/${encodeURIComponent(database)}`, jobIssued, {
        query,
        ...(result.trim() ? { result: result.trim() } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
  });
}

export function useKillJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post(`/v3/job/kill/${encodeURIComponent(id)}`, jobKilled),
    onSettled: (_data, _error, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: jobKeys.one(id) }),
        queryClient.invalidateQueries({ queryKey: jobKeys.lists() }),
      ]),
  });
}
