import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { Stored } from './columns';

type Put = (a: DuckDBAppender, v: Stored) => void;

const putBigInt: Put = (a, v) => {
  if (v === null) a.appendNull();
  else a.appendBigInt(typeof v === 'bigint' ? v : BigInt(v as number));
};
const putDouble: Put = (a, v) => {
  if (v === null) a.appendNull();
  else a.appendDouble(v as number);
};
const putVarchar: Put = (a, v) => {
  if (v === null) a.appendNull();
  else a.appendVarchar(v as string);
};
const putBlob: Put = (a, v) => {
  if (v === null) a.appendNull();
  else a.appendBlob(v as Buffer);
};

function putFor(type: string): Put {
  switch (type) {
    case 'int':
    case 'long':
    case 'boolean':
      return putBigInt;
    case 'double':
    case 'float':
      return putDouble;
    case 'binary':
      return putBlob;
    default:
      return putVarchar;
  }
}

/**
 * Rows into one DuckDB table through DuckDB's appender, in the connection's open transaction: every column of
 * the table in its order (`types`, the schema types, `time` as 'long' first), each row's values already stored
 * (`storeAs`). The appender buffers rows in chunks and hands them to DuckDB as columns, without SQL per row.
 */
export class DuckRowAppender {
  private constructor(
    private readonly appender: DuckDBAppender,
    private readonly puts: Put[],
  ) {}

  static async open(conn: DuckDBConnection, table: string, types: string[]): Promise<DuckRowAppender> {
    return new DuckRowAppender(await conn.createAppender(table), types.map(putFor));
  }

  /** Appends one row: a value per column, in the table's order. */
  add(row: readonly Stored[]): void {
    const { appender, puts } = this;
    for (let i = 0; i < puts.length; i++) (puts[i] as Put)(appender, row[i] ?? null);
    appender.endRow();
  }

  /** Hands the rows still buffered to DuckDB and closes the appender. */
  end(): void {
    this.appender.closeSync();
  }
}
