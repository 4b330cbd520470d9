import { databaseList, databaseObject, databaseReference, tableList, tableObject } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { fetchJsonLines } from '../shared/jsonLines';

/** Query keys and options of the catalog: databases, their tables, a table's newest rows. */

export const catalogKeys = {
  all: ['catalog'] as const,
  databases: () => [...catalogKeys.all, 'databases'] as const,
  database: (db: string) => [...catalogKeys.all, 'database', db] as const,
  tables: (db: string) => [...catalogKeys.database(db), 'tables'] as const,
  table: (db: string, table: string) => [...catalogKeys.database(db), 'table', table] as const,
  tail: (db: string, table: string, count: number) => [...catalogKeys.table(db, table), 'tail', count] as const,
};

const enc = encodeURIComponent;

export const databasesQueryOptions = () =>
  queryOptions({
    queryKey: catalogKeys.databases(),
    queryFn: ({ signal }) => api.get('/v3/database/list', databaseList, { signal }).then((r) => r.databases),
  });

export const databaseQueryOptions = (db: string) =>
  queryOptions({
    queryKey: catalogKeys.database(db),
    queryFn: ({ signal }) => api.get(`/v3/database/show/${enc(db)}`, databaseObject, { signal }),
  });

export const tablesQueryOptions = (db: string) =>
  queryOptions({
    queryKey: catalogKeys.tables(db),
    queryFn: ({ signal }) => api.get(`/v3/table/list/${enc(db)}`, tableList, { signal }).then((r) => r.tables),
  });

export const tableQueryOptions = (db: string, table: string) =>
  queryOptions({
    queryKey: catalogKeys.table(db, table),
    queryFn: ({ signal }) => api.get(`/v3/table/show/${enc(db)}/${enc(table)}`, tableObject, { signal }),
  });

/** The newest rows, newest first, as objects keyed by column. */
export const tailQueryOptions = (db: string, table: string, count: number) =>
  queryOptions({
    queryKey: catalogKeys.tail(db, table, count),
    queryFn: ({ signal }) =>
      fetchJsonLines(`/v3/table/tail/${enc(db)}/${enc(table)}?count=${count}&format=json`, count, signal).then(
        (r) => r.lines as Record<string, unknown>[],
      ),
  });

export function useCreateDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/database/create/${enc(name)}`, databaseReference),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: catalogKeys.databases() }),
  });
}

export function useDeleteDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/database/delete/${enc(name)}`, databaseReference),
    onSuccess: (_data, name) => {
      queryClient.removeQueries({ queryKey: catalogKeys.database(name) });
      return queryClient.invalidateQueries({ queryKey: catalogKeys.databases() });
    },
  });
}

export function useSetDeleteProtection(db: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => api.post(`/v3/database/update/${enc(db)}`, databaseObject, { delete_protected: on }),
    onSuccess: (database) => {
      queryClient.setQueryData(catalogKeys.database(db), database);
      return queryClient.invalidateQueries({ queryKey: catalogKeys.databases() });
    },
  });
}
