import { readAs } from '../../../data';
import { prestoType } from '../outcome';

/**
 * Result values of a PostgreSQL query in the shape the SQLite engine gave them (gone, decision 0053): integers as
 * numbers (bigint past 2^53), booleans as 1 and 0 (SQLite has none), JSON as compact text, and a column read
 * straight from a table keeps the type its catalog schema gives it (booleans, arrays and maps decoded).
 * Values arrive as PostgreSQL's text; each column's OID picks its conversion.
 */

const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  numeric: 1700,
  jsonb: 3802,
} as const;

export type Decode = (text: string) => unknown;

function integer(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

function float(text: string): number {
  if (text === 'Infinity') return Number.POSITIVE_INFINITY;
  if (text === '-Infinity') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/** How a column's text becomes a value, and its Presto type when the catalog does not say. */
function columnCodec(oid: number): { decode: Decode; type: string } {
  switch (oid) {
    case OID.bool:
      return { decode: (t) => (t === 't' ? 1 : 0), type: 'bigint' };
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid:
      return { decode: integer, type: 'bigint' };
    case OID.float4:
    case OID.float8:
      return { decode: float, type: 'double' };
    case OID.numeric:
      return { decode: (t) => (/^-?\d+$/.test(t) ? integer(t) : float(t)), type: 'double' };
    case OID.json:
    case OID.jsonb:
      return { decode: (t) => JSON.stringify(JSON.parse(t)), type: 'varchar' };
    case OID.bytea:
      return { decode: (t) => Buffer.from(t.slice(2), 'hex'), type: 'varbinary' };
    default:
      return { decode: (t) => t, type: 'varchar' };
  }
}

/** A column's decoder and Presto type, given its catalog type when it is read straight from a table. */
export function resultColumn(oid: number, declared: string | null): { decode: Decode; type: string } {
  const codec = columnCodec(oid);
  if (!declared) return codec;
  const nested = declared === 'boolean' || declared.startsWith('array<') || declared.startsWith('map<');
  const decode: Decode = nested
    ? (t) => {
        const v = codec.decode(t);
        return readAs(declared, typeof v === 'bigint' ? Number(v) : v);
      }
    : codec.decode;
  return { decode, type: prestoType(declared) };
}
