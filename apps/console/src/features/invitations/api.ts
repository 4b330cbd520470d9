import {
  type AcceptInvitationRequest,
  acceptInvitationResponse,
  type CreateInvitationRequest,
  createdInvitationResponse,
  invitationsResponse,
  linkInfoResponse,
  meResponse,
  okResponse,
  passwordResetAvailability,
  sentLink,
} from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const invitationKeys = {
  all: ['invitations'] as const,
  list: () => [...invitationKeys.all, 'list'] as const,
};

const open = { redirectOn401: false } as const;

/** The account's open invitations, pending and expired (administrators). */
export const invitationsQueryOptions = () =>
  queryOptions({
    queryKey: invitationKeys.list(),
    queryFn: ({ signal }) =>
      api.get('/console-api/invitations', invitationsResponse, { signal }).then((r) => r.invitations),
  });

export function useInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInvitationRequest) =>
      api.post('/console-api/invitations', createdInvitationResponse, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/console-api/invitations/${id}`, okResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}

/** An administrator's reset link for a user, to hand over. */
export const resetLinkFor = (userId: number) => api.post(`/console-api/users/${userId}/password-reset`, sentLink, {});

export const inspectLink = (token: string) => api.post('/console-api/links/inspect', linkInfoResponse, { token }, open);

export const acceptInvitation = (body: AcceptInvitationRequest) =>
  api.post('/console-api/invitations/accept', acceptInvitationResponse, body, open);

export const resetAvailability = () =>
  api.get('/console-api/password-reset', passwordResetAvailability, open).then((r) => r.emailAvailable);

export const requestReset = (email: string) => api.post('/console-api/password-reset', okResponse, { email }, open);

export const completeReset = (token: string, password: string) =>
  api.post('/console-api/password-reset/complete', meResponse, { token, password }, open);

/** The token of a one-time link: the page's fragment, which never reaches a server. */
export const tokenFromLocation = () => window.location.hash.replace(/^#/, '');
