import { type ApiKeyType, apiKeysResponse, createdApiKeyResponse, okResponse } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

/** The signed-in user's keys, masked. */
export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => api.get('/console-api/api-keys', apiKeysResponse, { signal }).then((r) => r.apiKeys),
  });

/** Answers the whole key: the only time it ever leaves the server. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: ApiKeyType) => api.post('/console-api/api-keys', createdApiKeyResponse, { type }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/console-api/api-keys/${id}`, okResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
