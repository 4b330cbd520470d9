import { apiKeysResponse, type CreateApiKeyRequest, createdApiKeyResponse, okResponse } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** Whose keys a listing shows: yours, one user's, or everyone's (the last two for administrators). */
export type KeyOwner = 'mine' | 'all' | number;

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: (owner: KeyOwner = 'mine') => [...apiKeyKeys.all, 'list', owner] as const,
};

/** Unrevoked keys (expired ones too), masked. */
export const apiKeysQueryOptions = (owner: KeyOwner = 'mine') =>
  queryOptions({
    queryKey: apiKeyKeys.list(owner),
    queryFn: ({ signal }) =>
      api
        .get(`/console-api/api-keys${owner === 'mine' ? '' : `?user=${owner}`}`, apiKeysResponse, { signal })
        .then((r) => r.apiKeys),
  });

/** Answers the whole key: the only time it ever leaves the server. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => api.post('/console-api/api-keys', createdApiKeyResponse, body),
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
