import type { RouteObject } from 'react-router';

/**
 * This area's console routes, children of the signed-in frame. Pages load lazily (own chunks). They live under
 * `/parent-segments`, not `/audiences`, which is the API's own prefix on the same origin.
 */
export const audienceRoutes: RouteObject[] = [
  {
    path: 'parent-segments',
    lazy: () => import('./ParentSegmentsPage').then((m) => ({ Component: m.ParentSegmentsPage })),
  },
  {
    path: 'parent-segments/new',
    lazy: () => import('./wizard/CreateParentSegmentPage').then((m) => ({ Component: m.CreateParentSegmentPage })),
  },
  {
    path: 'parent-segments/:id',
    lazy: () => import('./detail/ParentSegmentPage').then((m) => ({ Component: m.ParentSegmentPage })),
  },
  {
    path: 'parent-segments/:id/segments/new',
    lazy: () => import('./builder/SegmentBuilderPage').then((m) => ({ Component: m.SegmentBuilderPage })),
  },
  {
    path: 'parent-segments/:id/segments/:segmentId',
    lazy: () => import('./builder/SegmentBuilderPage').then((m) => ({ Component: m.SegmentBuilderPage })),
  },
];
