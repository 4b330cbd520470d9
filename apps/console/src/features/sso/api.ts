import {
  okResponse,
  type SsoSetting,
  type SsoSettingInput,
  ssoDomainList,
  ssoDomainResponse,
  ssoSettingResponse,
} from '@svc/contracts';
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

/** Fills the setting from the identity provider's metadata URL, which the server then refreshes on a schedule. */
export function useFollowMetadataUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) =>
      api.post(`${PATH}/metadata`, ssoSettingResponse, { metadata_url: url }).then((r) => r.sso_setting),
    onSuccess: (setting) => queryClient.setQueryData(ssoKeys.setting(), setting),
  });
}

/** "Refresh now": a failed fetch is recorded on the setting too, so the setting is read again either way. */
export function useRefreshMetadata() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${PATH}/metadata/refresh`, ssoSettingResponse, {}).then((r) => r.sso_setting),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKeys.setting() }),
  });
}

export function useStopFollowingMetadata() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`${PATH}/metadata`, ssoSettingResponse).then((r) => r.sso_setting),
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

const DOMAINS = '/v3/account/sso_domains';

/** The e-mail domains the account claims: their people are sent to its identity provider from the sign-in page. */
export const ssoDomainsQueryOptions = () =>
  queryOptions({
    queryKey: [...ssoKeys.all, 'domains'],
    queryFn: ({ signal }) => api.get(DOMAINS, ssoDomainList, { signal }).then((r) => r.sso_domains),
  });

export function useClaimSsoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => api.post(DOMAINS, ssoDomainResponse, { domain }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...ssoKeys.all, 'domains'] }),
  });
}

export function useReleaseSsoDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => api.delete(`${DOMAINS}/${encodeURIComponent(domain)}`, okResponse),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...ssoKeys.all, 'domains'] }),
  });
}
