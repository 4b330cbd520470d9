import type { RouteObject } from 'react-router';

/** This area's console routes, children of the signed-in frame. Pages load lazily (own chunks). */
export const importRoutes: RouteObject[] = [
  {
    path: 'data/import',
    lazy: () => import('./ImportWizardPage').then((m) => ({ Component: m.ImportWizardPage })),
  },
];
