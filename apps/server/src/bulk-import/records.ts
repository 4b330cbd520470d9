import { columnNameForKey, type PreparedRecord, prepareRecord, tableLimits, validTime } from '../data';
import { ApiError } from '../platform/errors';

/**
 * The table store's record rules (integer `time`, keys that make columns) applied at import speed.
 * Parts repeat the same few keys millions of times, so each key's column is worked out once; a record
 * whose keys are all already column names (the usual case) cannot have two keys on one column, so only
 * the others take the table store's full path. The outcome is always exactly `prepareRecord`'s.
 */
export class RecordRules {
  /** Key → its column, or null when the key cannot be a column. */
  private readonly columns = new Map<string, string | null>();

  /** The column a key maps to (worked out once per key), or null when it cannot be a column. */
  columnOf(key: string): string | null {
    let column = this.columns.get(key);
    if (column === undefined) {
      try {
        column = columnNameForKey(key);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        column = null;
      }
      this.columns.set(key, column);
    }
    return column;
  }

  /** The record ready for the table store, or null when it is an error record. */
  prepare(record: Record<string, unknown>): PreparedRecord | null {
    const values: [string, unknown][] = [];
    for (const key in record) {
      if (key === 'time') continue;
      const column = this.columnOf(key);
      if (column === null) return null;
      if (column !== key || values.length >= tableLimits.maxColumns) return this.slow(record);
      values.push([key, record[key]]);
    }
    const time = this.timeOf(record.time);
    return time === null ? null : { time, values };
  }

  /** The `time` rule, as the table store checks it (a record without a time is an error record here). */
  timeOf(value: unknown): number | null {
    return value === null || value === undefined ? null : validTime(value);
  }

  private slow(record: Record<string, unknown>): PreparedRecord | null {
    try {
      return prepareRecord(record);
    } catch (err) {
      if (err instanceof ApiError) return null;
      throw err;
    }
  }
}
