import { userSsoCreated, userSsoRecord } from '@svc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { userKeys } from './api';

export type SsoChange = 'enable_sso' | 'enforce_sso' | 'disable_sso';

/** Enables, enforces or disables SSO for a user through the /v3 user SSO operations. */
export function useChangeUserSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ change, email, identifier }: { change: SsoChange; email: string; identifier?: string }) =>
      api.post(`/v3/user/${change}/${encodeURIComponent(email)}`, userSsoRecord, {
        sso_setting: { user_email: email, ...(identifier ? { identifier } : {}) },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useCreateSsoUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { firstName: string; email: string; identifier: string }) =>
      api.post(`/v3/user/create_with_sso/${encodeURIComponent(input.firstName)}`, userSsoCreated, {
        sso_setting: { user_first_name: input.firstName, email: input.email, identifier: input.identifier },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
