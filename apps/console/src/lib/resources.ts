import {
  accountSettingsResponse,
  databaseList,
  folderListing,
  folderPermissions,
  type JobStatus,
  jobDetail,
  parentSegmentList,
  resultList,
  segment,
  tableList,
} from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

/**
 * One query-options factory for each server resource that more than one feature shows, so each is cached
 * once: databases and their tables, result connections, jobs, parent segments with their segments, folder
 * listings, folder permissions and the account's settings. Keys are hierarchical: invalidating a prefix (`resourceKeys.databases.all`, a database,
 * a parent segment) refreshes everything under it. Features derive their own shapes with `select`.
 */
const enc = encodeURIComponent;

const databases = {
  all: ['databases'] as const,
  list: () => [...databases.all, 'list'] as const,
  one: (db: string) => [...databases.all, 'one', db] as const,
  tables: (db: string) => [...databases.one(db), 'tables'] as const,
  table: (db: string, table: string) => [...databases.one(db), 'table', table] as const,
};
const connections = { all: ['connections'] as const, list: () => [...connections.all, 'list'] as const };
const jobs = {
  all: ['jobs'] as const,
  lists: () => [...jobs.all, 'list'] as const,
  one: (id: string) => [...jobs.all, 'one', id] as const,
};
const parentSegments = {
  all: ['parent-segments'] as const,
  list: () => [...parentSegments.all, 'list'] as const,
  one: (id: string) => [...parentSegments.all, 'one', id] as const,
  segments: (id: string) => [...parentSegments.one(id), 'segments'] as const,
};
const folders = {
  all: ['folders'] as const,
  listing: (folderId: string, depth: number) => [...folders.all, folderId, depth] as const,
};

const folderPermissionKeys = {
  all: ['folder-permissions'] as const,
  one: (folderId: string) => [...folderPermissionKeys.all, folderId] as const,
};
const account = { all: ['account'] as const, settings: () => [...account.all, 'settings'] as const };

export const resourceKeys = {
  databases,
  connections,
  jobs,
  parentSegments,
  folders,
  folderPermissions: folderPermissionKeys,
  account,
};

export const databasesQueryOptions = () =>
  queryOptions({
    queryKey: databases.list(),
    queryFn: ({ signal }) => api.get('/v3/database/list', databaseList, { signal }).then((r) => r.databases),
  });

export const tablesQueryOptions = (db: string) =>
  queryOptions({
    queryKey: databases.tables(db),
    queryFn: ({ signal }) => api.get(`/v3/table/list/${enc(db)}`, tableList, { signal }).then((r) => r.tables),
    enabled: db !== '',
  });

export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: connections.list(),
    queryFn: ({ signal }) => api.get('/v3/result/list', resultList, { signal }).then((r) => r.results),
  });

export const isRunning = (status: JobStatus | undefined) => status === 'queued' || status === 'running';

/** One job, polled while it is queued or running. */
export const jobQueryOptions = (id: string) =>
  queryOptions({
    queryKey: jobs.one(id),
    queryFn: ({ signal }) => api.get(`/v3/job/show/${enc(id)}`, jobDetail, { signal }),
    refetchInterval: (query) => (query.state.data && !isRunning(query.state.data.status) ? false : 500),
    staleTime: 0,
  });

export const parentSegmentsQueryOptions = () =>
  queryOptions({
    queryKey: parentSegments.list(),
    queryFn: ({ signal }) => api.get('/audiences', parentSegmentList, { signal }),
  });

const segmentList = segment.array();

export const segmentsQueryOptions = (parentSegmentId: string) =>
  queryOptions({
    queryKey: parentSegments.segments(parentSegmentId),
    queryFn: ({ signal }) => api.get(`/audiences/${enc(parentSegmentId)}/segments`, segmentList, { signal }),
  });

/** Everything under a folder (folders, segments, journeys) to `depth` levels. */
export const folderQueryOptions = (folderId: string, depth: number) =>
  queryOptions({
    queryKey: folders.listing(folderId, depth),
    queryFn: ({ signal }) => api.get(`/entities/by-folder/${enc(folderId)}?depth=${depth}`, folderListing, { signal }),
  });

/** Who has Full Control or View on a folder (own and inherited grants), and what the signed-in user has. */
export const folderPermissionsQueryOptions = (folderId: string) =>
  queryOptions({
    queryKey: folderPermissionKeys.one(folderId),
    queryFn: ({ signal }) => api.get(`/entities/folders/${enc(folderId)}/permissions`, folderPermissions, { signal }),
    enabled: folderId !== '',
  });

/** The account's settings: the default folder permission of members. */
export const accountSettingsQueryOptions = () =>
  queryOptions({
    queryKey: account.settings(),
    queryFn: ({ signal }) =>
      api.get('/console-api/account/settings', accountSettingsResponse, { signal }).then((r) => r.settings),
  });
