import {
  type LoginRequest,
  meResponse,
  okResponse,
  type SsoDiscoverRequest,
  ssoDiscoverResponse,
} from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/** The signed-in user; a 401 here means there is no session (the client sends the user to /login). */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: ({ signal }) => api.get('/console-api/me', meResponse, { signal }).then((r) => r.user),
    retry: false,
  });

/** Signs in; the answer is the user and the sign-in notices not shown before. */
export const login = (body: LoginRequest) => api.post('/console-api/login', meResponse, body, { redirectOn401: false });

export const logout = () => api.post('/console-api/logout', okResponse, {}, { redirectOn401: false });

/** Where an address signs in with SSO: the start URL when its domain is claimed by an account with SSO, else null. */
export const discoverSso = (body: SsoDiscoverRequest) =>
  api.post('/console-api/sso/discover', ssoDiscoverResponse, body, { redirectOn401: false }).then((r) => r.url);
