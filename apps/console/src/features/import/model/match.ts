import type { ColumnPlan, ColumnType, TimePlan } from './types';

/** The columns the wizard writes, with their types: kept, renamed, and not the time column. */
export function keptColumns(columns: ColumnPlan[], time: TimePlan): [string, ColumnType][] {
  return columns
    .filter((c) => !c.skip && !(time.mode === 'column' && c.source === time.column))
    .map((c) => [c.name, c.type]);
}

/** The keys or columns found in the files that the user left out (the time column is used, not left out). */
export function leftOutKeys(columns: ColumnPlan[], time: TimePlan): string[] {
  return columns.filter((c) => c.skip && !(time.mode === 'column' && c.source === time.column)).map((c) => c.source);
}

/** A table's schema as the API gives it: a JSON array of `[name, type]` (and sometimes an alias). */
export function parseSchema(schema: string | null | undefined): [string, string][] {
  try {
    const parsed = JSON.parse(schema ?? '[]') as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((c) =>
      Array.isArray(c) && typeof c[0] === 'string' ? [[c[0], String(c[1] ?? 'string')] as [string, string]] : [],
    );
  } catch {
    return [];
  }
}

/** The wizard's three types among the names tables use (`int`, `bigint`, `float`, `varchar`…). */
function family(type: string): string {
  const t = type.toLowerCase();
  if (t === 'int' || t === 'long' || t === 'bigint' || t === 'integer') return 'long';
  if (t === 'double' || t === 'float' || t === 'real') return 'double';
  if (t === 'string' || t === 'varchar' || t === 'text') return 'string';
  return t;
}

export type ColumnMatchStatus = 'new' | 'same' | 'conflict';

export interface ColumnMatch {
  name: string;
  type: ColumnType;
  /** The table's type for the column, or null when the table does not have it. */
  existing: string | null;
  status: ColumnMatchStatus;
  /** For people: what the import does with this column. */
  note: string;
}

/**
 * Matches the wizard's columns to the target table's: new ones will be added with their type; ones the
 * table has already either fit (same type, or whole numbers into a double column) or conflict.
 */
export function matchColumns(planned: [string, ColumnType][], schema: [string, string][]): ColumnMatch[] {
  const existing = new Map(schema.map(([name, type]) => [name, type]));
  return planned.map(([name, type]) => {
    const current = existing.get(name);
    if (current === undefined) {
      return { name, type, existing: null, status: 'new', note: `will add column ${name} (${type})` };
    }
    const have = family(current);
    if (have === type || (have === 'double' && type === 'long')) {
      return { name, type, existing: current, status: 'same', note: `matches ${name} (${current})` };
    }
    return {
      name,
      type,
      existing: current,
      status: 'conflict',
      note: `${name} is ${current} in the table but ${type} here: change its type in the columns step, or rename it`,
    };
  });
}

/** The columns to add to the table before the commit, with the wizard's types. */
export const columnsToAdd = (planned: [string, ColumnType][], schema: [string, string][]) =>
  matchColumns(planned, schema)
    .filter((m) => m.status === 'new')
    .map((m): [string, ColumnType] => [m.name, m.type]);
