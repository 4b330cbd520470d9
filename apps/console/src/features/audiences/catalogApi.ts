import { databaseList, tableList } from '@svc/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** A column of an imported table as the pickers show it: its name and its stored type (`long`, `string`, ...). */
export interface CatalogColumn {
  name: string;
  type: string;
}

export interface CatalogTable {
  name: string;
  columns: CatalogColumn[];
}

export const catalogKeys = {
  all: ['audienceCatalog'] as const,
  databases: () => [...catalogKeys.all, 'databases'] as const,
  tables: (database: string) => [...catalogKeys.all, 'tables', database] as const,
};

/**
 * The table `schema` is a JSON string of `[name, type(, alias)]`; `time` is never listed but every table has it
 * (integer Unix seconds), so it is offered first.
 */
export function columnsOfSchema(schema: string): CatalogColumn[] {
  const columns: CatalogColumn[] = [{ name: 'time', type: 'long' }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(schema);
  } catch {
    return columns;
  }
  if (!Array.isArray(parsed)) return columns;
  for (const entry of parsed) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string' && entry[0] !== 'time') {
      columns.push({ name: entry[0], type: entry[1] });
    }
  }
  return columns;
}

export const databasesQueryOptions = () =>
  queryOptions({
    queryKey: catalogKeys.databases(),
    queryFn: ({ signal }) =>
      api.get('/v3/database/list', databaseList, { signal }).then((r) => r.databases.map((d) => d.name)),
  });

export const tablesQueryOptions = (database: string) =>
  queryOptions({
    queryKey: catalogKeys.tables(database),
    enabled: database !== '',
    queryFn: ({ signal }): Promise<CatalogTable[]> =>
      api
        .get(`/v3/table/list/${encodeURIComponent(database)}`, tableList, { signal })
        .then((r) => r.tables.map((t) => ({ name: t.name, columns: columnsOfSchema(t.schema) }))),
  });
