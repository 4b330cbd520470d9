import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api';
import { logout } from './api';
import { LOGIN_PATH } from './nextPath';

/**
 * Ends the session on the server, then forgets every cached answer and replaces the current history
 * entry with /login: Back lands on a protected page that must ask the server again, and is refused.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const leave = () => {
    queryClient.clear();
    navigate(LOGIN_PATH, { replace: true });
  };
  return useMutation({
    mutationFn: logout,
    onSuccess: leave,
    onError: (error) => {
      // A session that already ended is as good as signed out.
      if (error instanceof ApiError && error.status === 401) return leave();
      notifications.show({ color: 'red', title: 'Could not sign out', message: error.message });
    },
  });
}
