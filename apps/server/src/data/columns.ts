import { z } from 'zod';
import { badRequest } from '../platform/errors';
import { parseStored } from '../platform/storedJson';

/**
 * Columns of customer tables: how record keys become column names, how values get a type, and how a
 * value is stored in a column of a given type. Pure functions; tableStore.ts does the SQL.
 */

/** One entry of a table's wire `schema`: `[name, type]` or `[name, type, alias]`. */
const schemaEntry = z.union([z.tuple([z.string(), z.string()]), z.tuple([z.string(), z.string(), z.string()])]);
export type SchemaEntry = z.infer<typeof schemaEntry>;
const tableSchema = z.array(schemaEntry);

/** A table's schema as the control database keeps it (`tables.schema_json`). */
export const readTableSchema = (text: string): SchemaEntry[] => parseStored(tableSchema, text, 'tables.schema_json');

/** A table's schema as its data file (or PostgreSQL schema) keeps it, in its own `_svc$tables` list. */
export const readMetaSchema = (text: string): SchemaEntry[] =>
  parseStored(tableSchema, text, "the data file's _svc$tables.schema_json");

/** A column name after mapping: lowercase letters, digits and underscores, not starting with a digit. */
const COLUMN_RULE = /^[a-z_][a-z0-9_]{0,127}$/;
const COLUMN_RULE_TEXT = 'lowercase letters, digits and underscores, not starting with a digit, at most 128 characters';

/** Names SQLite gives the row id; a column of that name would hide it, so they are refused. */
const RESERVED = new Set(['rowid', 'oid', '_rowid_']);

/**
 * `v` is the Treasure Data clients' name for a table's whole-record column: td-client-ruby builds its
 * schema with a `v` entry of its own, so a real column of that name breaks `td table:list` for the whole
 * account. A key that maps to `v` is stored under this column instead (decision 0019).
 */
const V_KEY_COLUMN = '_v';

/**
 * Maps a record key to its column name: lowercased, and every character other than a letter, digit or
 * underscore replaced by `_`; a leading digit gets a `_` in front. `userId` → `userid`, `page-url` →
 * `page_url`, `1st` → `_1st`, and `v` (or `V`) → `_v` (V_KEY_COLUMN). Keys that are empty, longer than 128 characters or name the row id are refused.
 */
export function columnNameForKey(key: string): string {
  const known = knownColumns.get(key);
  if (known !== undefined) return known;
  const name = mapKey(key);
  // Ingestion repeats the same few keys on every record: remember them (a bounded set).
  if (knownColumns.size >= 10_000) knownColumns.clear();
  knownColumns.set(key, name);
  return name;
}

const knownColumns = new Map<string, string>();

function mapKey(key: string): string {
  let name = key.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (!COLUMN_RULE.test(name)) {
    throw badRequest(
      `The key "${key.slice(0, 64)}" cannot be a column name: keys must be 1 to 128 characters (${COLUMN_RULE_TEXT} after mapping).`,
    );
  }
  if (RESERVED.has(name)) throw badRequest(`The key "${key}" is reserved and cannot be a column name.`);
  return name === 'v' ? V_KEY_COLUMN : name;
}

/** A schema column name given by a client must already be in the column form (no silent renames). */
export function checkSchemaColumnName(name: string): void {
  if (!COLUMN_RULE.test(name) || RESERVED.has(name) || name === 'time' || name === 'v') {
    throw badRequest(
      `"${name.slice(0, 64)}" is not a valid column name: use ${COLUMN_RULE_TEXT}; "time", "v", "rowid", "oid" and "_rowid_" are reserved.`,
    );
  }
}

const SCALAR_TYPES = new Set(['int', 'long', 'double', 'float', 'string', 'boolean', 'binary']);
const NESTED_TYPE = /^(array<[a-z<>, ]+>|map<[a-z<>, ]+>)$/;

function isValidColumnType(type: string): boolean {
  return SCALAR_TYPES.has(type) || NESTED_TYPE.test(type);
}

const COLUMN_TYPES_TEXT = 'int, long, double, float, string, boolean, binary, array<T> or map<K,V>';

/** True for a type kept as JSON text: arrays and maps. */
function isNestedType(type: string): boolean {
  return type.startsWith('array<') || type.startsWith('map<');
}

function scalarType(v: unknown): string | null {
  if (typeof v === 'bigint') return 'long';
  if (typeof v === 'number') return Number.isInteger(v) ? 'long' : 'double';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  return null;
}

/** The type a new column gets from the first non-null value seen for it. */
export function inferType(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Uint8Array) return 'binary';
  if (Array.isArray(v)) {
    const kinds = new Set(v.map(scalarType));
    const only = kinds.size === 1 ? [...kinds][0] : null;
    return `array<${only ?? 'string'}>`;
  }
  if (typeof v === 'object') return 'map<string,string>';
  return scalarType(v);
}

const INTEGER_TEXT = /^-?\d{1,19}$/;
const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function integerFrom(v: unknown): number | bigint | null {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && INTEGER_TEXT.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : BigInt(v);
  }
  return null;
}

function textFrom(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'object') return JSON.stringify(v, jsonSafe);
  return String(v);
}

/** JSON.stringify cannot write BigInt; msgpack decoding can produce them. */
export function jsonSafe(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v;
}

export type Stored = number | bigint | string | Buffer | null;

/**
 * The value stored in a column of `type`. A value that cannot be read as that type is stored as NULL,
 * as a schema-on-read engine would show it (a string in a `long` column). Numbers in text are read.
 */
export function storeAs(type: string, v: unknown): Stored {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'int':
    case 'long':
      return integerFrom(v);
    case 'double':
    case 'float':
      if (typeof v === 'number') return Number.isFinite(v) ? v : null;
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'string' && NUMBER_TEXT.test(v.trim())) return Number(v.trim());
      return null;
    case 'boolean':
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'number') return v === 0 ? 0 : 1;
      if (v === 'true' || v === 'false') return v === 'true' ? 1 : 0;
      return null;
    case 'binary':
      if (v instanceof Uint8Array) return Buffer.from(v);
      return Buffer.from(textFrom(v));
    default:
      return textFrom(v);
  }
}

/** Bytes a stored value takes, roughly: the basis of `estimated_storage_size`. */
export function storedBytes(v: Stored): number {
  if (v === null) return 1;
  if (typeof v === 'string') return v.length + 2;
  if (typeof v === 'number' || typeof v === 'bigint') return 8;
  return v.length + 2;
}

/** The value a reader (tail) sees for a stored value of `type`. */
export function readAs(type: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'boolean') return v === 1 || v === 1n;
  if (isNestedType(type) && typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v;
}

/** Parses and checks a wire schema (JSON string or array of `[name, type(, alias)]`). */
export function parseSchema(raw: unknown): SchemaEntry[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest('"schema" must be a JSON array of [name, type] or [name, type, alias] entries.');
    }
  }
  if (!Array.isArray(value)) {
    throw badRequest('"schema" must be a JSON array of [name, type] or [name, type, alias] entries.');
  }
  const seen = new Set<string>();
  return value.map((entry, i): SchemaEntry => {
    if (
      !Array.isArray(entry) ||
      entry.length < 2 ||
      entry.length > 4 ||
      !entry.every((part) => typeof part === 'string')
    ) {
      throw badRequest(`"schema" entry ${i} must be [name, type] or [name, type, alias], all strings.`);
    }
    const [name, rawType, alias] = entry as string[];
    const type = (rawType as string).trim().toLowerCase();
    checkSchemaColumnName(name as string);
    if (!isValidColumnType(type)) {
      throw badRequest(`Column "${name}" has the unknown type "${rawType}": use ${COLUMN_TYPES_TEXT}.`);
    }
    if (alias !== undefined && alias !== '') checkSchemaColumnName(alias);
    if (seen.has(name as string)) throw badRequest(`Column "${name}" appears twice in "schema".`);
    seen.add(name as string);
    return alias ? [name as string, type, alias] : [name as string, type];
  });
}
