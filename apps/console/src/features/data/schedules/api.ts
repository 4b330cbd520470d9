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

/** A schedule's settings as the console's form sends them (`/v3/schedule/create` and `update`, JSON). */
export interface ScheduleSettings {
  cron: string;
  timezone: string;
  delay: number;
  retry_limit: number;
  result: string;
  database?: string;
  type?: string;
  query?: string;
}

export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, ...settings }: ScheduleSettings & { name: string }) =>
      api.post(`/v3/schedule/create/${enc(name)}`, scheduleObject, settings),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** Changes settings, or pauses and resumes (`paused`). */
export function useUpdateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, ...change }: Partial<ScheduleSettings> & { name: string; paused?: boolean }) =>
      api.post(`/v3/schedule/update/${enc(name)}`, scheduleObject, change),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

/** The runs of a schedule, newest first (the latest 100). */
export const historyQueryOptions = (name: string) =>
  queryOptions({
    queryKey: [...keys.all, 'history', name] as const,
    queryFn: ({ signal }) => api.get(`/v3/schedule/history/${enc(name)}?from=0&to=100`, scheduleHistory, { signal }),
    refetchInterval: (query) =>
      query.state.data?.history.some((j) => ['queued', 'running'].includes(j.status)) ? 1000 : 10_000,
  });

/** The field a refusal names: its message starts with it ("cron" …), or a taken name (409). */
export function scheduleFieldOf(error: { message: string; status?: number } | null): string | undefined {
  if (!error) return undefined;
  if (error.status === 409) return 'name';
  return /^"(\w+)"/.exec(error.message)?.[1];
}
