import { resultReference } from '@svc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { resourceKeys } from '../../../lib/resources';

/** Result connections: where query results can be sent. The server masks credentials in every URL it shows. */

export { connectionsQueryOptions } from '../../../lib/resources';

const connectionKeys = resourceKeys.connections;

const enc = encodeURIComponent;

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
