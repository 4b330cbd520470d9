import type { RouteObject } from 'react-router';

/** This area's console routes, children of the signed-in frame. Pages load lazily (own chunks). */
export const dwhRoutes: RouteObject[] = [
  { path: 'data/sync', lazy: async () => ({ Component: (await import('./SyncListPage')).SyncListPage }) },
  { path: 'data/sync/new', lazy: async () => ({ Component: (await import('./SyncWizardPage')).SyncWizardPage }) },
  {
    path: 'data/sync/authentications',
    lazy: async () => ({ Component: (await import('./AuthenticationsPage')).AuthenticationsPage }),
  },
  { path: 'data/sync/:dwhId', lazy: async () => ({ Component: (await import('./SyncPage')).SyncPage }) },
  { path: 'data/sync/:dwhId/edit', lazy: async () => ({ Component: (await import('./SyncEditPage')).SyncEditPage }) },
  {
    path: 'data/sync/:dwhId/runs/:attemptId',
    lazy: async () => ({ Component: (await import('./RunPage')).RunPage }),
  },
];
