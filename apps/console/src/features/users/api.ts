import { type CreateUserRequest, okResponse, userResponse, usersResponse } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
};

/** Everyone in the signed-in user's account (administrators only). */
export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => api.get('/console-api/users', usersResponse, { signal }).then((r) => r.users),
  });

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserRequest) => api.post('/console-api/users', userResponse, body).then((r) => r.user),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useRemoveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/console-api/users/${id}`, okResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
