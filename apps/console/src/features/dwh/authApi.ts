import { authentication, authenticationList, connectionTest, type SslMode } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import { dwhKeys } from './api';

/** Warehouse authentications (`/v1/authentications`): list, store, change, test and delete. */

export const authenticationsQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.authentications(),
    queryFn: ({ signal }) =>
      api.get('/v1/authentications', authenticationList, { signal }).then((r) => r.authentications),
  });

export interface AuthenticationSettings {
  name: string;
  host: string;
  port: number;
  database: string;
  user: string;
  /** When editing, "" keeps the stored password. */
  password: string;
  ssl_mode: SslMode;
}

/** What an edit sends: every field but an empty password (which keeps the stored one). */
function changes(form: AuthenticationSettings): Partial<AuthenticationSettings> {
  const { password, ...rest } = form;
  return password === '' ? rest : form;
}

/** Stores new settings (no id) or changes a stored authentication. */
export function useSaveAuthentication(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: AuthenticationSettings) =>
      id === null
        ? api.post('/v1/authentications', authentication, form)
        : request('PATCH', `/v1/authentications/${id}`, authentication, changes(form)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.authentications() }),
  });
}

/** Tries settings before they are saved: new ones, or a stored authentication's with the changes typed. */
export function useTestSettings(id: number | null) {
  return useMutation({
    mutationFn: (form: AuthenticationSettings) =>
      id === null
        ? api.post('/v1/authentications/test', connectionTest, form)
        : api.post(`/v1/authentications/${id}/test`, connectionTest, changes(form)),
  });
}

/** Tests a stored authentication as it is. */
export function useTestAuthentication() {
  return useMutation({
    mutationFn: (id: number) => api.post(`/v1/authentications/${id}/test`, connectionTest),
  });
}

export function useDeleteAuthentication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/v1/authentications/${id}`, authentication),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.authentications() }),
  });
}
