import { Navigate, type RouteObject, useParams } from 'react-router';
import { jobPath } from './shared/paths';

/** A job's `url` from the API is `/jobs/:id`: the same page as under /data. */
function JobRedirect() {
  return <Navigate to={jobPath(useParams().jobId ?? '')} replace />;
}

/** This area's console routes, children of the signed-in frame. Pages load lazily (own chunks). */
export const dataRoutes: RouteObject[] = [
  { path: 'data', element: <Navigate to="/data/databases" replace /> },
  {
    path: 'data/databases',
    lazy: async () => ({ Component: (await import('./databases/DatabasesPage')).DatabasesPage }),
  },
  {
    path: 'data/databases/:database',
    lazy: async () => ({ Component: (await import('./databases/DatabasePage')).DatabasePage }),
  },
  {
    path: 'data/databases/:database/tables/:table',
    lazy: async () => ({ Component: (await import('./databases/TablePage')).TablePage }),
  },
  { path: 'data/query', lazy: async () => ({ Component: (await import('./query/QueryPage')).QueryPage }) },
  { path: 'data/jobs', lazy: async () => ({ Component: (await import('./jobs/JobsPage')).JobsPage }) },
  { path: 'data/jobs/:jobId', lazy: async () => ({ Component: (await import('./jobs/JobPage')).JobPage }) },
  { path: 'jobs/:jobId', element: <JobRedirect /> },
  {
    path: 'data/saved-queries',
    lazy: async () => ({ Component: (await import('./saved-queries/SavedQueriesPage')).SavedQueriesPage }),
  },
  {
    path: 'data/schedules',
    lazy: async () => ({ Component: (await import('./schedules/SchedulesPage')).SchedulesPage }),
  },
  {
    path: 'data/schedules/:name',
    lazy: async () => ({ Component: (await import('./schedules/SchedulePage')).SchedulePage }),
  },
  {
    path: 'data/bulk-loads',
    lazy: async () => ({ Component: (await import('./bulk-loads/BulkLoadsPage')).BulkLoadsPage }),
  },
  {
    path: 'data/bulk-loads/:name',
    lazy: async () => ({ Component: (await import('./bulk-loads/BulkLoadPage')).BulkLoadPage }),
  },
  {
    path: 'data/connections',
    lazy: async () => ({ Component: (await import('./connections/ConnectionsPage')).ConnectionsPage }),
  },
];
