import { existsSync } from 'node:fs';
import type { AppDeps } from '../platform/context';
import { customerSchema, pgIdentifier } from '../platform/storage';
import { type DatabaseRow, databaseFile } from './catalog';

/**
 * Where a customer database's rows are, for readers that query them directly (query jobs, parent segment
 * builds): on SQLite the file to open or ATTACH read-only (null while it does not exist yet), on PostgreSQL
 * the schema, and how a table or column name becomes an identifier there (`pgIdentifier`).
 */
export type DataLocation =
  | { backend: 'sqlite'; file: string | null }
  | { backend: 'postgres'; schema: string; identifier: (name: string) => string };

export function dataLocation(deps: AppDeps, database: Pick<DatabaseRow, 'account_id' | 'id'>): DataLocation {
  if (deps.storage.backend === 'postgres') {
    return { backend: 'postgres', schema: customerSchema(database.id), identifier: pgIdentifier };
  }
  const file = databaseFile(deps.config.dataDir, database.account_id, database.id);
  return { backend: 'sqlite', file: existsSync(file) ? file : null };
}
