import {
  type AttributeInput,
  type AudienceColumnType,
  audienceColumnType,
  type BehaviorInput,
  type parentSegmentInput,
} from '@svc/contracts';
import { z } from 'zod';
import { findDatabase, findTable, readTableSchema } from '../data';
import { badRequest } from '../platform/errors';
import type { Executor } from '../platform/storage';
import { parseStored } from '../platform/storedJson';

/**
 * The definition of a parent segment as stored (`definition_json`): master, attributes and behaviors with
 * their source columns and types, checked against the catalog. Types follow the source column: long (and
 * declared int) columns are `number` or `timestamp`, other numbers `number`, everything else `string` (spec:
 * only long columns holding Unix time may be time-filtered).
 */

const storedAttribute = z.object({
  id: z.number(),
  name: z.string(),
  type: audienceColumnType,
  database: z.string(),
  table: z.string(),
  column: z.string(),
  /** Master column the attribute joins on. */
  parentKey: z.string(),
  /** Column of the attribute's table that matches `parentKey`; null for master columns. */
  foreignKey: z.string().nullable(),
});
export type StoredAttribute = z.infer<typeof storedAttribute>;

const storedBehaviorColumn = z.object({ name: z.string(), type: audienceColumnType, column: z.string() });
export type StoredBehaviorColumn = z.infer<typeof storedBehaviorColumn>;

const storedBehavior = z.object({
  id: z.number(),
  name: z.string(),
  database: z.string(),
  table: z.string(),
  parentKey: z.string(),
  foreignKey: z.string(),
  allColumns: z.boolean(),
  scheduleType: z.string(),
  scheduleOption: z.string().nullable(),
  columns: z.array(storedBehaviorColumn),
});
export type StoredBehavior = z.infer<typeof storedBehavior>;

const definition = z.object({
  master: z.object({ database: z.string(), table: z.string(), key: z.string() }),
  attributes: z.array(storedAttribute),
  behaviors: z.array(storedBehavior),
  /** Next id for a new attribute or behavior (ids are never reused). */
  nextId: z.number(),
});
export type Definition = z.infer<typeof definition>;

/** A parent segment's definition as stored in `column` (`definition_json`, or `built_json` of its last build). */
export const readDefinition = (text: string, column: 'definition_json' | 'built_json'): Definition =>
  parseStored(definition, text, `parent_segments.${column}`);

type Input = z.output<typeof parentSegmentInput>;
type SourceTable = { database: string; table: string; columns: Map<string, string> };

/** The source table's columns and their catalog types (`time` is a long); 400 naming what is missing. */
async function sourceTable(ex: Executor, accountId: number, database: string, table: string): Promise<SourceTable> {
  const dbRow = await findDatabase(ex, accountId, database);
  if (!dbRow) throw badRequest(`The database "${database}" does not exist. Import data into it first.`);
  const tableRow = await findTable(ex, accountId, dbRow.id, table);
  if (!tableRow) throw badRequest(`The table "${table}" does not exist in the database "${database}".`);
  const columns = new Map<string, string>([['time', 'long']]);
  for (const [name, type] of readTableSchema(tableRow.schema_json)) columns.set(name, type.toLowerCase());
  return { database, table, columns };
}

function columnType(source: SourceTable, column: string): string {
  const type = source.columns.get(column);
  if (type === undefined) {
    throw badRequest(`The column "${column}" does not exist in the table "${source.database}.${source.table}".`);
  }
  return type;
}

/**
 * Integer column types that may hold Unix time. The data plane's schemas use long, and int where a client
 * declares it (apps/server/src/data/columns.ts); both are stored as 64-bit SQLite integers, so an int column
 * holds Unix seconds as well as a long one. No other integer type occurs. See README.md.
 */
const LONG_TYPES = new Set(['long', 'int']);
const NUMBER_TYPES = new Set(['long', 'int', 'double', 'float', 'boolean']);

function defaultType(sourceType: string): AudienceColumnType {
  return NUMBER_TYPES.has(sourceType) ? 'number' : 'string';
}

/** The requested type if the source column allows it; the spec's refusals otherwise. */
export function checkedType(
  requested: AudienceColumnType | undefined,
  sourceType: string,
  what: string,
  where: string,
): AudienceColumnType {
  const fallback = defaultType(sourceType);
  if (requested === undefined || requested === fallback) return fallback;
  if (requested === 'timestamp') {
    if (LONG_TYPES.has(sourceType)) return 'timestamp';
    throw badRequest(
      `${what} cannot be a timestamp: its column ${where} holds ${sourceType} values, and only long columns holding Unix time can be time-filtered. Convert the column to Unix time (a long column) first.`,
    );
  }
  const allowed = LONG_TYPES.has(sourceType) ? 'number or timestamp' : fallback;
  throw badRequest(
    `${what} cannot be of type "${requested}": its column ${where} is ${sourceType}, so use ${allowed}.`,
  );
}

function idOf(raw: string | number | undefined, existing: Map<number, unknown>, what: string): number | null {
  if (raw === undefined || raw === '') return null;
  const id = Number(raw);
  if (!existing.has(id)) throw badRequest(`${what} has the id "${raw}", which is not one of this parent segment.`);
  return id;
}

function uniqueNames(items: { name: string }[], what: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.name)) throw badRequest(`Two ${what} are named "${item.name}"; names must be unique.`);
    seen.add(item.name);
  }
}

/**
 * Checks an input record against the catalog and turns it into a definition, keeping the ids of `previous`
 * (a PUT). Referenced databases, tables and columns must exist; types must be allowed by their columns.
 */
export async function buildDefinition(
  ex: Executor,
  accountId: number,
  input: Input,
  previous: Definition | null,
): Promise<Definition> {
  const master = await sourceTable(ex, accountId, input.master.parentDatabaseName, input.master.parentTableName);
  columnType(master, input.master.parentKey);
  let nextId = previous?.nextId ?? 1;
  const tables = new Map<string, SourceTable>();
  const source = async (database: string, table: string) => {
    const k = `${database}.${table}`;
    let t = tables.get(k);
    if (!t) {
      t = await sourceTable(ex, accountId, database, table);
      tables.set(k, t);
    }
    return t;
  };
  const oldAttributes = new Map((previous?.attributes ?? []).map((a) => [a.id, a]));
  const attributes: StoredAttribute[] = [];
  for (const a of input.attributes as AttributeInput[]) {
    const what = `The attribute "${a.name}"`;
    const id = idOf(a.id, oldAttributes, what) ?? nextId++;
    const database = a.parentDatabaseName || master.database;
    const table = a.parentTableName || master.table;
    const src = await source(database, table);
    const sourceType = columnType(src, a.parentColumn);
    const parentKey = a.parentKey || input.master.parentKey;
    columnType(master, parentKey);
    const onMaster = database === master.database && table === master.table;
    const foreignKey = a.foreignKey || (onMaster ? null : undefined);
    if (foreignKey === undefined) {
      throw badRequest(`${what} comes from ${database}.${table}, not the master table: give its "foreignKey" column.`);
    }
    if (foreignKey !== null) columnType(src, foreignKey);
    const type = checkedType(a.type ?? oldAttributes.get(id)?.type, sourceType, what, `"${a.parentColumn}"`);
    attributes.push({ id, name: a.name, type, database, table, column: a.parentColumn, parentKey, foreignKey });
  }
  uniqueNames(attributes, 'attributes');
  const oldBehaviors = new Map((previous?.behaviors ?? []).map((b) => [b.id, b]));
  const behaviors: StoredBehavior[] = [];
  for (const b of input.behaviors as BehaviorInput[]) {
    const what = `The behavior "${b.name}"`;
    const id = idOf(b.id, oldBehaviors, what) ?? nextId++;
    const src = await source(b.parentDatabaseName, b.parentTableName);
    columnType(src, b.foreignKey);
    const parentKey = b.parentKey || input.master.parentKey;
    columnType(master, parentKey);
    behaviors.push({
      id,
      name: b.name,
      database: b.parentDatabaseName,
      table: b.parentTableName,
      parentKey,
      foreignKey: b.foreignKey,
      allColumns: b.allColumns,
      scheduleType: b.scheduleType ?? 'none',
      scheduleOption: b.scheduleOption ?? null,
      columns: behaviorColumns(b, src, oldBehaviors.get(id)),
    });
  }
  uniqueNames(behaviors, 'behaviors');
  return {
    master: { database: master.database, table: master.table, key: input.master.parentKey },
    attributes,
    behaviors,
    nextId,
  };
}

function behaviorColumns(b: BehaviorInput, src: SourceTable, previous: StoredBehavior | undefined) {
  if (b.allColumns) {
    const byColumn = new Map(b.schema.map((c) => [c.parentColumn, c]));
    return [...src.columns].map(([column, sourceType]): StoredBehaviorColumn => {
      const type = defaultType(sourceType);
      const given = byColumn.get(column);
      const retyped = given?.type !== undefined && given.type !== type;
      const renamed = given?.name !== undefined && given.name !== column;
      if (retyped || renamed) {
        throw badRequest(
          `The behavior "${b.name}" takes all columns (allColumns: true), so its column "${column}" cannot be ${retyped ? 'retyped' : 'renamed'} on its own. Select the columns individually (allColumns: false) to change one column.`,
        );
      }
      return { name: column, type, column };
    });
  }
  const before = new Map((previous?.columns ?? []).map((c) => [c.column, c.type]));
  const columns = b.schema.map((c): StoredBehaviorColumn => {
    const sourceType = columnType(src, c.parentColumn);
    const name = c.name ?? c.parentColumn;
    const what = `The column "${name}" of the behavior "${b.name}"`;
    return {
      name,
      type: checkedType(c.type ?? before.get(c.parentColumn), sourceType, what, `"${c.parentColumn}"`),
      column: c.parentColumn,
    };
  });
  uniqueNames(columns, `columns of the behavior "${b.name}"`);
  uniqueNames(
    columns.map((c) => ({ name: c.column })),
    `selected columns of the behavior "${b.name}" (by source column)`,
  );
  return columns;
}
