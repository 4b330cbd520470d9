import {
  type AccountSettings,
  accountSettingsResponse,
  type CreateUserRequest,
  okResponse,
  type UpdateUserRequest,
  userResponse,
  usersResponse,
} from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { resourceKeys } from '../../lib/resources';
import { authKeys } from '../auth';

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

/**
 * Renames a user or changes their role. A role change ends that user's sessions; when it is your own, this
 * browser goes on with a new session, so who you are is asked again.
 */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: UpdateUserRequest }) =>
      api.patch(`/console-api/users/${id}`, userResponse, change).then((r) => r.user),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      await queryClient.invalidateQueries({ queryKey: authKeys.all });
      // Folder permissions answer what the caller may do, which a role decides.
      await queryClient.invalidateQueries({ queryKey: resourceKeys.folderPermissions.all });
    },
  });
}

/** Changes the account's settings (administrators). */
export function useChangeAccountSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<AccountSettings>) =>
      api.patch('/console-api/account/settings', accountSettingsResponse, change).then((r) => r.settings),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: resourceKeys.account.all });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.folderPermissions.all });
    },
  });
}
