import {
  type BulkImportSession,
  bulkImportPerformed,
  bulkImportReference,
  bulkImportSession,
  CONSOLE_HEADER,
  databaseList,
  databaseReference,
  jobDetail,
  jobKilled,
  tableList,
  tableReference,
} from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { ColumnType } from './model/types';

export const importKeys = {
  all: ['import'] as const,
  databases: () => [...importKeys.all, 'databases'] as const,
  tables: (database: string) => [...importKeys.all, 'tables', database] as const,
  session: (name: string) => [...importKeys.all, 'session', name] as const,
  job: (id: number) => [...importKeys.all, 'job', id] as const,
};

const enc = encodeURIComponent;

export const databasesQueryOptions = () =>
  queryOptions({
    queryKey: importKeys.databases(),
    queryFn: ({ signal }) => api.get('/v3/database/list', databaseList, { signal }).then((r) => r.databases),
  });

export const tablesQueryOptions = (database: string) =>
  queryOptions({
    queryKey: importKeys.tables(database),
    queryFn: ({ signal }) => api.get(`/v3/table/list/${enc(database)}`, tableList, { signal }).then((r) => r.tables),
    enabled: database !== '',
  });

const settled = (s: BulkImportSession) => s.status !== 'performing' && s.status !== 'committing';

/** A bulk import session, polled while its perform or commit runs. */
export const sessionQueryOptions = (name: string) =>
  queryOptions({
    queryKey: importKeys.session(name),
    queryFn: ({ signal }) => api.get(`/v3/bulk_import/show/${enc(name)}`, bulkImportSession, { signal }),
    refetchInterval: (query) => (query.state.data && settled(query.state.data) ? false : 500),
  });

/** The perform job, polled until it ends. */
export const jobQueryOptions = (id: number) =>
  queryOptions({
    queryKey: importKeys.job(id),
    queryFn: ({ signal }) => api.get(`/v3/job/show/${id}`, jobDetail, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'running' || status === undefined ? 500 : false;
    },
  });

export const killJob = (id: number) => api.post(`/v3/job/kill/${id}`, jobKilled);

export const createDatabase = (name: string) => api.post(`/v3/database/create/${enc(name)}`, databaseReference);
export const createTable = (database: string, table: string) =>
  api.post(`/v3/table/create/${enc(database)}/${enc(table)}`, tableReference);

/** Adds the wizard's columns with their chosen types, so a double column of whole numbers stays double. */
export const appendSchema = (database: string, table: string, columns: [string, ColumnType][]) =>
  api.post(`/v3/table/append-schema/${enc(database)}/${enc(table)}`, tableReference, { schema: columns });

export const bulkImport = {
  create: (session: string, database: string, table: string) =>
    api.post(`/v3/bulk_import/create/${enc(session)}/${enc(database)}/${enc(table)}`, bulkImportReference),
  freeze: (session: string) => api.post(`/v3/bulk_import/freeze/${enc(session)}`, bulkImportReference),
  perform: (session: string) => api.post(`/v3/bulk_import/perform/${enc(session)}`, bulkImportPerformed),
  commit: (session: string) => api.post(`/v3/bulk_import/commit/${enc(session)}`, bulkImportReference),
  remove: (session: string) => api.post(`/v3/bulk_import/delete/${enc(session)}`, bulkImportReference),
  /** Deletes the session as the page goes away: a keepalive request outlives the page. */
  removeOnExit: (session: string) =>
    void fetch(`/v3/bulk_import/delete/${enc(session)}`, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { [CONSOLE_HEADER]: '1' },
    }).catch(() => {}),
  errorRecordsUrl: (session: string) => `/v3/bulk_import/error_records/${enc(session)}`,
};
