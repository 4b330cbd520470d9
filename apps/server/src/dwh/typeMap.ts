import type { TargetType, WarehouseColumn } from '@svc/contracts';
import { quoteIdent } from './connection';

/**
 * How PostgreSQL columns land in our tables (documented in README.md here):
 * integers → long; real, double, numeric and money → double; booleans → long 1/0; text, char, uuid,
 * enums, network addresses, intervals, times, ranges and bit strings → string; dates and timestamps →
 * string (the server's text in UTC, e.g. `2026-01-02 03:04:05.123456+00`) or long Unix seconds when chosen;
 * json and jsonb → string (the JSON text); arrays → string (JSON array text). Binary data, text-search
 * vectors, geometric and composite types cannot be mapped: the guess lists them as skipped.
 */

type Kind = 'integer' | 'float' | 'numeric' | 'boolean' | 'text' | 'date' | 'timestamp' | 'json' | 'array' | 'other';

export interface SourceColumnInfo {
  name: string;
  /** `format_type` of the column, e.g. `numeric(10,2)`. */
  source_type: string;
  /** `pg_type.typname`, e.g. `int4`, `_int4`, `timestamptz`. */
  typname: string;
  /** `pg_type.typcategory`: N numeric, S string, A array, E enum, U user, G geometric, C composite… */
  category: string;
  nullable: boolean;
  primary_key: boolean;
}

const BY_NAME: Record<string, Kind> = {
  int2: 'integer',
  int4: 'integer',
  int8: 'integer',
  oid: 'integer',
  float4: 'float',
  float8: 'float',
  numeric: 'numeric',
  money: 'numeric',
  bool: 'boolean',
  date: 'date',
  timestamp: 'timestamp',
  timestamptz: 'timestamp',
  json: 'json',
  jsonb: 'json',
};

const SKIPPED: Record<string, string> = {
  bytea: 'binary data has no text or number form to load',
  tsvector: 'text-search vectors cannot be mapped',
  tsquery: 'text-search queries cannot be mapped',
};

function kindOf(c: Pick<SourceColumnInfo, 'typname' | 'category'>): Kind | { skipped: string } {
  const skipped = SKIPPED[c.typname];
  if (skipped) return { skipped };
  const named = BY_NAME[c.typname];
  if (named) return named;
  switch (c.category) {
    case 'A':
      return c.typname === '_bytea' ? { skipped: 'arrays of binary data cannot be mapped' } : 'array';
    case 'S':
    case 'E':
    case 'I':
    case 'T':
    case 'D':
    case 'R':
    case 'V':
      return 'text';
    case 'N':
      return 'integer';
    case 'G':
      return { skipped: 'geometric types cannot be mapped' };
    case 'C':
      return { skipped: 'composite types cannot be mapped' };
    default:
      return c.typname === 'uuid' || c.typname === 'xml'
        ? 'text'
        : { skipped: `the type "${c.typname}" is not supported` };
  }
}

const OPTIONS: Record<Kind, TargetType[]> = {
  integer: ['long', 'double', 'string'],
  float: ['double', 'string', 'long'],
  numeric: ['double', 'string', 'long'],
  boolean: ['long', 'string'],
  text: ['string'],
  date: ['string', 'long'],
  timestamp: ['string', 'long'],
  json: ['string'],
  array: ['string'],
  other: ['string'],
};

/** The mapped type (first option), the other allowed types, or why the column is skipped. */
export function mapColumn(c: SourceColumnInfo): WarehouseColumn {
  const kind = kindOf(c);
  const base = { name: c.name, source_type: c.source_type, nullable: c.nullable, primary_key: c.primary_key };
  if (typeof kind === 'object') return { ...base, type: null, options: [], skipped_reason: kind.skipped };
  const options = OPTIONS[kind];
  return { ...base, type: options[0] as TargetType, options, skipped_reason: null };
}

/** Columns an incremental load can follow: whole numbers, numerics and dates/timestamps (ordered, comparable). */
export function canBeIncremental(c: Pick<SourceColumnInfo, 'typname' | 'category'>): boolean {
  const kind = kindOf(c);
  return kind === 'integer' || kind === 'numeric' || kind === 'date' || kind === 'timestamp';
}

/** Columns that can become `time`: timestamps, dates, whole numbers (taken as Unix seconds). */
export function canBeTime(c: Pick<SourceColumnInfo, 'typname' | 'category'>): boolean {
  const kind = kindOf(c);
  return kind === 'timestamp' || kind === 'date' || kind === 'integer';
}

/**
 * The SELECT expression that produces a column's value as text in the chosen type; null when the column
 * cannot become that type. Conversions run in the warehouse, so precision is the server's.
 */
export function selectExpression(
  c: Pick<SourceColumnInfo, 'name' | 'typname' | 'category'>,
  to: TargetType,
): string | null {
  const kind = kindOf(c);
  if (typeof kind === 'object' || !OPTIONS[kind].includes(to)) return null;
  const col = quoteIdent(c.name);
  if (to === 'string') return kind === 'array' ? `to_json(${col})::text` : `${col}::text`;
  if (to === 'double') return kind === 'numeric' ? `${col}::numeric::float8` : `${col}::float8`;
  // long
  switch (kind) {
    case 'boolean':
      return `${col}::int`;
    case 'date':
    case 'timestamp':
      return `floor(extract(epoch from ${col}))::bigint`;
    case 'float':
    case 'numeric':
      return `round(${col}::numeric)::bigint`;
    default:
      return `${col}::bigint`;
  }
}

/** The time expression for a `time` column: Unix seconds from a timestamp, date or whole number. */
export function timeExpression(c: Pick<SourceColumnInfo, 'name' | 'typname' | 'category'>): string | null {
  if (!canBeTime(c)) return null;
  return selectExpression(c, 'long');
}

/** A value of the server's text in the chosen type: long (number, or bigint past 2^53), double, string. */
export function convertValue(text: string | null, to: TargetType): unknown {
  if (text === null) return null;
  if (to === 'string') return text;
  if (to === 'double') {
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}
