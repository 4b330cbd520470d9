import {
  type BulkImportSession,
  bulkImportPerformed,
  bulkImportReference,
  bulkImportSession,
  CONSOLE_HEADER,
  databaseReference,
  jobKilled,
  tableReference,
} from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import type { ColumnType } from './model/types';

export const importKeys = {
  all: ['import'] as const,
  session: (name: string) => [...importKeys.all, 'session', name] as const,
};

const enc = encodeURIComponent;

const settled = (s: BulkImportSession) => s.status !== 'performing' && s.status !== 'committing';

/** A bulk import session, polled while its perform or commit runs. */
export const sessionQueryOptions = (name: string) =>
  queryOptions({
    queryKey: importKeys.session(name),
    queryFn: ({ signal }) => api.get(`/v3/bulk_import/show/${enc(name)}`, bulkImportSession, { signal }),
    refetchInterval: (query) => (query.state.data && settled(query.state.data) ? false : 500),
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
