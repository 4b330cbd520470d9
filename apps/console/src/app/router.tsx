import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate } from 'react-router';
import { CenteredLoader } from '../components/CenteredLoader';
import { ApiKeysPage } from '../features/api-keys';
import { audienceRoutes } from '../features/audiences/routes';
import { LOGIN_PATH, LoginPage, loginUrlFor } from '../features/auth';
import { dataRoutes } from '../features/data/routes';
import { dwhRoutes } from '../features/dwh/routes';
import { importRoutes } from '../features/import/routes';
import { ForgotPasswordPage, JoinPage, ResetPasswordPage } from '../features/invitations';
import { journeyRoutes } from '../features/journeys/routes';
import { setUnauthorizedHandler } from '../lib/api';
import { AuditLogRoute } from './AuditLogRoute';
import { NotFoundPage } from './NotFoundPage';
import { OverviewRoute } from './OverviewRoute';
import { RequireSession } from './RequireSession';
import { RouteError } from './RouteError';
import { SsoRoute } from './SsoRoute';
import { UsersRoute } from './UsersRoute';

/** The console's URLs. Each area lists its own (lazy) routes in its feature folder. */
export function createAppRouter(queryClient: QueryClient) {
  // Shown while a lazy page's code loads on a full page load (React Router warns on every load without one).
  const loading = <CenteredLoader label="Loading the console" height="60vh" />;
  const router = createBrowserRouter([
    { path: LOGIN_PATH, element: <LoginPage />, errorElement: <RouteError />, hydrateFallbackElement: loading },
    // Pages reached by one-time links (decision 0044) and from the sign-in page, without a session.
    ...[
      { path: '/join', element: <JoinPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
    ].map((r) => ({ ...r, errorElement: <RouteError />, hydrateFallbackElement: loading })),
    {
      path: '/',
      element: <RequireSession />,
      errorElement: <RouteError />,
      hydrateFallbackElement: loading,
      children: [
        {
          // A page that fails shows its error inside the frame, so the navigation stays usable.
          errorElement: <RouteError />,
          children: [
            // Everyone lands on the overview: who they are here and what they may do.
            { index: true, element: <Navigate to="/overview" replace /> },
            { path: 'overview', element: <OverviewRoute /> },
            { path: 'settings', element: <Navigate to="/settings/api-keys" replace /> },
            { path: 'settings/users', element: <UsersRoute /> },
            { path: 'settings/api-keys', element: <ApiKeysPage /> },
            { path: 'settings/sso', element: <SsoRoute /> },
            { path: 'settings/audit-log', element: <AuditLogRoute /> },
            ...dataRoutes,
            ...importRoutes,
            ...dwhRoutes,
            ...audienceRoutes,
            ...journeyRoutes,
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ]);

  // A 401 from any call means the session is gone: go to the login page (coming back here afterwards)
  // and drop every cached answer once the protected pages are off screen.
  setUnauthorizedHandler(() => {
    const { pathname, search } = router.state.location;
    if (pathname === LOGIN_PATH) return;
    void router.navigate(loginUrlFor(pathname + search), { replace: true }).then(() => queryClient.clear());
  });
  return router;
}
