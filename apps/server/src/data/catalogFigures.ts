import { sql } from '../platform/storage';
import type { DatabaseRow } from './catalog';
import type { Meta } from './plane';

/**
 * The statement that copies a table's figures and schema from its data to its catalog row; the row's time of
 * change moves only when the schema did. It runs after a write where the catalog is elsewhere (SQLite's
 * control file), and within the write's own statement where it is not (PostgreSQL, postgresPlane.ts).
 */
export function catalogFigures(database: DatabaseRow, meta: Meta, updatedAt: number) {
  return sql`UPDATE tables SET schema_json = ${meta.schema_json}, count = ${meta.row_count},
          estimated_storage_size = ${meta.bytes}, last_log_timestamp = ${meta.max_time},
          counter_updated_at = ${meta.updated_at},
          updated_at = CASE WHEN schema_json = ${meta.schema_json} THEN updated_at ELSE ${updatedAt} END
        WHERE account_id = ${database.account_id} AND database_id = ${database.id} AND name = ${meta.name}`;
}
