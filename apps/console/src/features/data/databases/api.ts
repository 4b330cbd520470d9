import { databaseObject, databaseReference, tableObject } from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { resourceKeys } from '../../../lib/resources';
import { fetchJsonLines } from '../shared/jsonLines';

/** Query options of the catalog pages beyond the shared lists (lib/resources): one database, one table, its newest rows. */

export { databasesQueryOptions, tablesQueryOptions } from '../../../lib/resources';

const keys = resourceKeys.databases;
const enc = encodeURIComponent;

export const databaseQueryOptions = (db: string) =>
  queryOptions({
    queryKey: keys.one(db),
    queryFn: ({ signal }) => api.get(`/v3/database/show/${enc(db)}`, databaseObject, { signal }),
  });

export const tableQueryOptions = (db: string, table: string) =>
  queryOptions({
    queryKey: keys.table(db, table),
    queryFn: ({ signal }) => api.get(`/v3/table/show/${enc(db)}/${enc(table)}`, tableObject, { signal }),
  });

/** The newest rows, newest first, as objects keyed by column. */
export const tailQueryOptions = (db: string, table: string, count: number) =>
  queryOptions({
    queryKey: [...keys.table(db, table), 'tail', count] as const,
    queryFn: ({ signal }) =>
      fetchJsonLines(`/v3/table/tail/${enc(db)}/${enc(table)}?count=${count}&format=json`, count, signal).then(
        (r) => r.lines as Record<string, unknown>[],
      ),
  });

export function useCreateDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/database/create/${enc(name)}`, databaseReference),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.list() }),
  });
}

export function useDeleteDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post(`/v3/database/delete/${enc(name)}`, databaseReference),
    onSuccess: (_data, name) => {
      queryClient.removeQueries({ queryKey: keys.one(name) });
      return queryClient.invalidateQueries({ queryKey: keys.list() });
    },
  });
}

export function useSetDeleteProtection(db: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => api.post(`/v3/database/update/${enc(db)}`, databaseObject, { delete_protected: on }),
    onSuccess: (database) => {
      queryClient.setQueryData(keys.one(db), database);
      return queryClient.invalidateQueries({ queryKey: keys.list() });
    },
  });
}
