import { DuckDBListValue, type DuckDBType, DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';
import { readAs } from '../../../data';
import { BIGINT_OUT_OF_RANGE, prestoType, QueryFailed } from '../outcome';
import { jsonOf, plainValue } from './functions';

/**
 * Result values of a DuckDB query in the shape the SQLite engine gave them (gone, decision 0053): integers as
 * numbers (bigint past 2^53), booleans as 1 and 0, decimals as doubles, lists and structs as JSON text, and a
 * column read straight from a table keeps the type its catalog schema gives it (booleans, arrays and maps
 * decoded). A bigint SUM (a HUGEINT in DuckDB) stays a bigint, and past the 64-bit range ends the job as it does
 * on PostgreSQL.
 */

export interface ResultColumn {
  type: string;
  convert: (v: DuckDBValue) => unknown;
}

const INTEGERS = new Set([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.BOOLEAN,
]);
const FLOATS = new Set([DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL]);
const NESTED = new Set([DuckDBTypeId.LIST, DuckDBTypeId.STRUCT, DuckDBTypeId.MAP, DuckDBTypeId.ARRAY]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An integer as a number (a bigint past 2^53); one a bigint column cannot hold fails the job. */
function integerValue(v: DuckDBValue): unknown {
  if (typeof v === 'bigint' && (v < INT64_MIN || v > INT64_MAX)) throw new QueryFailed(BIGINT_OUT_OF_RANGE);
  return plainValue(v);
}

const nested = (v: DuckDBValue) => (v === null ? null : JSON.stringify(jsonOf(v)));

/**
 * A list's value as plain JSON when its elements are JSON values (DuckDB's JSON type, as `ARRAY[…]` and the JSON
 * functions give): each element parsed, so `array_agg(ARRAY[1, 2])` is `[[1,2]]` as in Presto, not `["[1,2]"]`.
 */
function jsonOfList(v: DuckDBValue, type: DuckDBType): unknown {
  if (type.typeId === DuckDBTypeId.LIST && v instanceof DuckDBListValue) {
    return v.items.map((item) => jsonOfList(item, type.valueType));
  }
  if (type.alias === 'JSON' && typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return jsonOf(v);
}

/** Whether a list type holds JSON values, at any depth of lists. */
function holdsJson(type: DuckDBType): boolean {
  if (type.typeId === DuckDBTypeId.LIST) return holdsJson(type.valueType);
  return type.alias === 'JSON';
}

function engineColumn(type: DuckDBType): ResultColumn {
  if (INTEGERS.has(type.typeId)) return { type: 'bigint', convert: integerValue };
  if (FLOATS.has(type.typeId)) return { type: 'double', convert: plainValue };
  if (type.typeId === DuckDBTypeId.BLOB) return { type: 'varbinary', convert: plainValue };
  if (type.typeId === DuckDBTypeId.LIST && holdsJson(type)) {
    return { type: 'varchar', convert: (v) => (v === null ? null : JSON.stringify(jsonOfList(v, type))) };
  }
  if (NESTED.has(type.typeId)) return { type: 'varchar', convert: nested };
  return { type: 'varchar', convert: (v) => (v === null ? null : typeof v === 'string' ? v : String(v)) };
}

/** A column's conversion and Presto type, given its catalog type when it is read straight from a table. */
export function resultColumn(type: DuckDBType, declared: string | null): ResultColumn {
  const column = engineColumn(type);
  if (!declared) return column;
  const decoded = declared === 'boolean' || declared.startsWith('array<') || declared.startsWith('map<');
  return {
    type: prestoType(declared),
    convert: decoded ? (v) => readAs(declared, column.convert(v)) : column.convert,
  };
}
