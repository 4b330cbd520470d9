import type { ColumnType, Generated } from 'kysely';

/**
 * What a control-table column holds, in words both backends agree on: `integer` (SQLite INTEGER, PostgreSQL
 * BIGINT: ids, millisecond times, counts, 0/1 flags), `text`, or `blob` (BLOB / BYTEA: hashes). ` null` when
 * the column may hold NULL; ` default` when it may not but the database fills it when an INSERT leaves it out
 * (a DEFAULT, or the id the backend generates: SQLite's rowid, a PostgreSQL identity).
 */
export type ColumnDescription = `${Base}` | `${Base} null` | `${Base} default`;

type Base = 'integer' | 'text' | 'blob';

/** A table's columns and their kinds, in the order the migrations make them. */
export type TableDescription = Readonly<Record<string, ColumnDescription>>;

export type TableDescriptions = Readonly<Record<string, TableDescription>>;

/**
 * The values as the drivers give them: PostgreSQL's BIGINT is parsed to a number as SQLite gives it
 * (storage/postgres.ts), and both give a blob as a Buffer; a Buffer or any Uint8Array may be written.
 */
interface Values {
  integer: number;
  text: string;
  blob: ColumnType<Buffer, Uint8Array, Uint8Array>;
}

type ColumnOf<K> = K extends `${infer B extends Base} null`
  ? Values[B] | null
  : K extends `${infer B extends Base} default`
    ? Generated<Values[B]>
    : K extends Base
      ? Values[K]
      : never;

/** The Kysely table types of a description: a column's select, insert and update types come from its kind. */
export type TablesOf<D extends TableDescriptions> = {
  -readonly [T in keyof D]: { -readonly [C in keyof D[T]]: ColumnOf<D[T][C]> };
};
