import { Box, Center } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { CenteredLoader } from '../components/CenteredLoader';
import { QueryError } from '../components/QueryError';
import { loginUrlFor, meQueryOptions } from '../features/auth';
import { ApiError } from '../lib/api';
import { AppFrame } from './AppFrame';
import { CurrentUserContext } from './currentUser';

/**
 * Every signed-in page sits under this route. It asks the server who is signed in before showing
 * anything, so a page reached with Back after sign-out (cache cleared) is refused, not shown stale.
 */
export function RequireSession() {
  const me = useQuery(meQueryOptions());
  const location = useLocation();
  // The error comes first: a refetch that failed keeps the old data, which must not be shown.
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.status === 401) {
      return <Navigate to={loginUrlFor(location.pathname + location.search)} replace />;
    }
    return (
      <Center mih="100vh" p="md">
        <Box maw={520}>
          <QueryError title="Your account could not be loaded" error={me.error} onRetry={() => me.refetch()} />
        </Box>
      </Center>
    );
  }
  if (me.isPending) return <CenteredLoader label="Loading your account" height="100vh" />;
  return (
    <CurrentUserContext value={me.data}>
      <AppFrame me={me.data}>
        <Outlet />
      </AppFrame>
    </CurrentUserContext>
  );
}
