import { queryOptions } from '@tanstack/react-query';
import * as resources from '../../lib/resources';

/** A column of an imported table as the pickers show it: its name and its stored type (`long`, `string`, ...). */
export interface CatalogColumn {
  name: string;
  type: string;
}

export interface CatalogTable {
  name: string;
  columns: CatalogColumn[];
}

/**
 * The table `schema` is a JSON string of `[name, type(, alias)]`; `time` is never listed but every table has it
 * (integer Unix seconds), so it is offered first.
 */
function columnsOfSchema(schema: string): CatalogColumn[] {
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

/** The shared database list (lib/resources), as names. */
export const databasesQueryOptions = () =>
  queryOptions({ ...resources.databasesQueryOptions(), select: (databases) => databases.map((d) => d.name) });

/** The shared table list of a database (lib/resources), with each table's columns read from its schema. */
export const tablesQueryOptions = (database: string) =>
  queryOptions({
    ...resources.tablesQueryOptions(database),
    select: (tables): CatalogTable[] => tables.map((t) => ({ name: t.name, columns: columnsOfSchema(t.schema) })),
  });
