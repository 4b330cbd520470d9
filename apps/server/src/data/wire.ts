import type { Database, DatabaseListItem, Table } from '@svc/contracts';
import { v3OffsetTime, v3Time } from '../platform/time';
import type { DatabaseRow, TableRow } from './catalog';

/** Catalog rows as the /v3 objects of the spec, wire-compat §2.1/§2.2 and the OAS. */

export function toV3Database(row: DatabaseRow, records: number): Database {
  return {
    id: String(row.id),
    name: row.name,
    created_at: v3Time(new Date(row.created_at)),
    updated_at: v3Time(new Date(row.updated_at)),
    count: records,
    organization: null,
    permission: 'owner',
    delete_protected: row.delete_protected === 1,
    datatank: false,
  };
}

/** The list shows the numeric-offset time form, no id, and the permission td-client-ruby needs (decision 0024). */
export function toV3DatabaseListItem(row: DatabaseRow, records: number): DatabaseListItem {
  return {
    name: row.name,
    count: records,
    created_at: v3OffsetTime(new Date(row.created_at)),
    updated_at: v3OffsetTime(new Date(row.updated_at)),
    organization: null,
    permission: 'owner',
  };
}

/**
 * `last_log_timestamp` is the newest row's `time` and `counter_updated_at` the last write, both as time
 * strings: integers crash the Python and Ruby clients (wire-compat §1.6), though the OAS says integer.
 */
export function toV3Table(row: TableRow): Table {
  return {
    id: row.id,
    name: row.name,
    type: 'log',
    count: row.count,
    estimated_storage_size: row.estimated_storage_size,
    schema: row.schema_json,
    expire_days: row.expire_days,
    include_v: row.include_v === 1,
    counter_updated_at: row.counter_updated_at === null ? null : v3Time(new Date(row.counter_updated_at)),
    last_log_timestamp: row.last_log_timestamp === null ? null : v3Time(new Date(row.last_log_timestamp * 1000)),
    created_at: v3Time(new Date(row.created_at)),
    updated_at: v3Time(new Date(row.updated_at)),
    delete_protected: false,
  };
}
