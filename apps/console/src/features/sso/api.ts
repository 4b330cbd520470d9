import { okResponse, type SsoSetting, type SsoSettingInput, ssoSettingResponse } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api';

const ssoKeys = {
  all: ['sso'] as const,
  setting: () => [...ssoKeys.all, 'setting'] as const,
};

const PATH = '/v3/account/sso_setting';

/** The account's SSO setting, or null while none is configured (the API answers 404). */
export const ssoSettingQueryOptions = () =>
  queryOptions({
    queryKey: ssoKeys.setting(),
    queryFn: ({ signal }): Promise<SsoSetting | null> =>
      api
        .get(PATH, ssoSettingResponse, { signal })
        .then((r) => r.sso_setting)
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }),
  });

export function useSaveSsoSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SsoSettingInput) =>
      api.post(PATH, ssoSettingResponse, { sso_setting: input }).then((r) => r.sso_setting),
    onSuccess: (setting) => queryClient.setQueryData(ssoKeys.setting(), setting),
  });
}

export function useDeleteSsoSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(PATH, okResponse),
    onSuccess: () => queryClient.setQueryData(ssoKeys.setting(), null),
  });
}
