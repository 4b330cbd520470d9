/** The column types the wizard writes: they become the table's column types. */
export type ColumnType = 'long' | 'double' | 'string';
export const COLUMN_TYPES: readonly ColumnType[] = ['long', 'double', 'string'];

/** What a file holds; `msgpack` files are ready-made parts, uploaded as they are. */
export type FileKind = 'csv' | 'tsv' | 'json' | 'jsonl' | 'msgpack';

/** Text encodings the wizard can read; `utf-8` is what the server stores. */
export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/** How one file is read: detected, then possibly overridden by the user. */
export interface ReadSettings {
  kind: FileKind;
  encoding: TextEncoding;
  /** CSV/TSV: the field separator. */
  delimiter: string;
  /** CSV/TSV: whether the first row read (after `skipRows`) names the columns. */
  header: boolean;
  /** CSV/TSV: non-empty rows before the table starts (a title, notes), not imported. 0 when absent. */
  skipRows?: number;
}

/** One source column and what becomes of it. */
export interface ColumnPlan {
  /** The name in the file (header cell, JSON key, or `column_N`). */
  source: string;
  /** The column name in the table. */
  name: string;
  type: ColumnType;
  skip: boolean;
  /** What happens to a row whose cell will not convert to `type`: left out (the default), or the cell set to null. */
  onInvalid?: InvalidFix;
}

/** The bulk fixes for cells that will not convert (the third, changing the type, changes `type`). */
export type InvalidFix = 'skip' | 'null';

/** The forms a time value may take. */
export type TimeForm = 'unix_s' | 'unix_ms' | 'unix_us' | 'unix_ns' | 'iso8601' | 'custom';

/** Where each row's `time` comes from. */
export type TimePlan =
  | { mode: 'import' }
  | { mode: 'column'; column: string; form: TimeForm; format: string; timeZone: string };

/** A value from a file: text from CSV/TSV, any JSON value from JSON. */
export type SourceValue = unknown;
/** A row as read: source column name to value. */
export type SourceRow = Record<string, SourceValue>;

/** A row that will not be imported, and why. */
export interface Rejection {
  /** 1-based row number within its file (data rows, not counting the header). */
  row: number;
  file: string;
  reason: string;
  values: SourceRow;
  /** Left out by the user's fix for cells that will not convert, rather than rejected. */
  skipped?: boolean;
}
