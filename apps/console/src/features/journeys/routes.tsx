import type { RouteObject } from 'react-router';

/** This area's console routes, children of the signed-in frame. Pages load lazily (own chunks). */
export const journeyRoutes: RouteObject[] = [
  { path: 'journeys', lazy: () => import('./JourneysPage').then((m) => ({ Component: m.JourneysPage })) },
  {
    path: 'journeys/:journeyId',
    // The canvas (React Flow, ELK) is its own chunk, loaded only here.
    lazy: () => import('./JourneyEditorPage').then((m) => ({ Component: m.JourneyEditorPage })),
  },
];
