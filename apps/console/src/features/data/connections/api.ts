import { resultList, resultReference } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** Result connections: where query results can be sent. The server masks credentials in every URL it shows. */

export const connectionKeys = {
  all: ['result-connections'] as const,
  list: () => [...connectionKeys.all, 'list'] as const,
};

const enc = encodeURIComponent;

export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: connectionKeys.list(),
    queryFn: ({ signal }) => api.get('/v3/result/list', resultList, { signal }).then((r) => r.results),
  });

export function useCreateConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, url }: { name: string; url: string }) =>
      api.post(`/v3/result/create/${enc(name)}`, resultReference, { url }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/result/delete/${enc(name)}`, resultReference),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionKeys.all }),
  });
}
