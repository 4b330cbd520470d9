import { scheduleHistory, scheduleList, scheduleObject, scheduleRuns } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Scheduled queries (`/v3/schedule/*`): the list, each one's latest run, run now and delete. */

const enc = encodeURIComponent;
const keys = {
  all: ['schedules'] as const,
  list: () => [...keys.all, 'list'] as const,
  lastRun: (name: string) => [...keys.all, 'last-run', name] as const,
};

export const schedulesQueryOptions = () =>
  queryOptions({
    queryKey: keys.list(),
    queryFn: ({ signal }) => api.get('/v3/schedule/list', scheduleList, { signal }).then((r) => r.schedules),
    refetchInterval: 10_000,
  });

/** The newest run of a schedule (scheduled, retried or run by hand), or null before the first. */
export const lastRunQueryOptions = (name: string) =>
  queryOptions({
    queryKey: keys.lastRun(name),
    queryFn: ({ signal }) =>
      api
        .get(`/v3/schedule/history/${enc(name)}?from=0&to=1`, scheduleHistory, { signal })
        .then((r) => r.history[0] ?? null),
    refetchInterval: (query) =>
      query.state.data && ['queued', 'running'].includes(query.state.data.status) ? 1000 : 10_000,
  });

export function useRunScheduleNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api.post(`/v3/schedule/run/${enc(name)}/${Math.floor(Date.now() / 1000)}`, scheduleRuns),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/schedule/delete/${enc(name)}`, scheduleObject),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
