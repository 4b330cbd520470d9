import { type SavedQueryInput, savedQueryAnswer, savedQueryList, savedQueryRunAnswer } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';

/** Saved queries (`/entities/saved-queries`): kept on the server, shared in the account. */

const BASE = '/entities/saved-queries';
const enc = encodeURIComponent;
const keys = {
  all: ['saved-queries'] as const,
  list: (search: string) => [...keys.all, 'list', search] as const,
  one: (id: string) => [...keys.all, 'one', id] as const,
};

export const savedQueriesQueryOptions = (search: string) =>
  queryOptions({
    queryKey: keys.list(search),
    queryFn: ({ signal }) =>
      api.get(search ? `${BASE}?search=${enc(search)}` : BASE, savedQueryList, { signal }).then((r) => r.savedQueries),
    // A last run's state follows its job.
    refetchInterval: (query) =>
      query.state.data?.some((q) => q.lastRun?.status === 'queued' || q.lastRun?.status === 'running') ? 2000 : 30_000,
  });

export const savedQueryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: keys.one(id),
    queryFn: ({ signal }) => api.get(`${BASE}/${enc(id)}`, savedQueryAnswer, { signal }).then((r) => r.savedQuery),
  });

/** Each change refreshes every saved query view. */
function useSavedQueryMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export const useCreateSavedQuery = () =>
  useSavedQueryMutation((input: SavedQueryInput) => api.post(BASE, savedQueryAnswer, input).then((r) => r.savedQuery));

export const useUpdateSavedQuery = () =>
  useSavedQueryMutation(({ id, ...patch }: Partial<SavedQueryInput> & { id: string }) =>
    api.patch(`${BASE}/${enc(id)}`, savedQueryAnswer, patch).then((r) => r.savedQuery),
  );

export const useDuplicateSavedQuery = () =>
  useSavedQueryMutation((id: string) =>
    api.post(`${BASE}/${enc(id)}/duplicate`, savedQueryAnswer).then((r) => r.savedQuery),
  );

export const useDeleteSavedQuery = () =>
  useSavedQueryMutation((id: string) => api.delete(`${BASE}/${enc(id)}`, savedQueryAnswer));

export const useRunSavedQuery = () =>
  useSavedQueryMutation((id: string) => api.post(`${BASE}/${enc(id)}/run`, savedQueryRunAnswer));

/** The form field a refusal names (`details.field`), to show the message there. */
export function fieldOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  // A name already taken is a 409.
  if (error.status === 409) return 'name';
  const field = error.details?.field;
  return typeof field === 'string' ? field : undefined;
}
