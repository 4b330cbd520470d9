import type { AudienceColumnType } from '@svc/contracts';

/** Whether a column's type may switch between number and timestamp, and if not, why (spec: time filters). */
export interface TypeToggle {
  allowed: boolean;
  reason: string | null;
}

// Integer types that hold Unix time: long, and int where a schema declares it (server: audiences/definition.ts).
const LONG_TYPES = new Set(['long', 'int']);

/**
 * `sourceType` is the column's type in its table (`long`, `double`, `string`, ...), undefined while the catalog
 * loads or when the column is gone. `allColumns` is set for columns of a behavior that takes every column.
 */
export function typeToggle(type: AudienceColumnType, sourceType: string | undefined, allColumns = false): TypeToggle {
  if (allColumns) {
    return {
      allowed: false,
      reason:
        'This behavior takes all columns, so one column’s type cannot change. Select the columns individually first.',
    };
  }
  if (type === 'string') {
    return {
      allowed: false,
      reason: 'String data cannot be time-filtered. Convert the column to Unix time (a long column) first.',
    };
  }
  if (type === 'timestamp') return { allowed: true, reason: null };
  if (sourceType !== undefined && !LONG_TYPES.has(sourceType)) {
    return {
      allowed: false,
      reason: `The column holds ${sourceType} values; only long columns holding Unix time can be timestamps.`,
    };
  }
  return { allowed: true, reason: null };
}
