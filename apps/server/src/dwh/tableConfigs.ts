import { type AdvancedConfig, DATA_NAME, type integrationCreate, type SyncMode } from '@svc/contracts';
import type { z } from 'zod';
import { checkFilters, checkSourceOptions } from '../bulk-loads';
import { columnNameForKey } from '../data';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { type AuthRow, requireAuthentication, sourceFields } from './authentications';
import type { Configs } from './storedConfigs';

/**
 * An integration's configs: their checks, and the bulk load session config each table becomes. A table's
 * `mode` is `append`, `replace` or `merge` (append and keep one row per key, the newest by the incremental
 * column); `merge_keys` (source columns) default to the source's primary key.
 */

export type Create = z.infer<typeof integrationCreate>;

/** The column a source column lands in; `time` is the table's own, so a source `time` becomes `source_time`. */
export function landedName(source: string): string {
  const name = columnNameForKey(source);
  return name === 'time' ? 'source_time' : name;
}

/** The table's mode: its own, else the integration's default, else append. */
function modeOf(c: Pick<Configs, 'output_config'>, a: AdvancedConfig): SyncMode {
  return a.config.mode ?? c.output_config.mode ?? 'append';
}

/** The incremental column of a table, or null when every run reads every row. */
function incrementalColumn(a: AdvancedConfig): string | null {
  const t = a.config;
  return t.incremental === true ? (t.incremental_columns?.[0] ?? null) : null;
}

/** The key of a table in merge mode (source column names): `merge_keys`, else the source's primary key. */
function mergeKeysOf(a: AdvancedConfig): string[] {
  const keys = a.config.merge_keys ?? [];
  return keys.length > 0 ? keys : (a.config.primary_key ?? []);
}

/** The bulk load session config of one table: source (no secret), output, rename and add_time filters. */
export function sessionConfig(auth: AuthRow, c: Configs, a: AdvancedConfig) {
  const t = a.config;
  const renames: Record<string, string> = {};
  for (const col of t.columns) {
    const to = landedName(col.name);
    if (to !== col.name) renames[col.name] = to;
  }
  // A table's own time column wins; output_config.time_column is the default for tables without one.
  const wantedTime = t.time_column || c.output_config.time_column || null;
  const timeColumn = wantedTime ? (renames[wantedTime] ?? wantedTime) : null;
  if (wantedTime && !t.columns.some((col) => col.name === wantedTime)) {
    const from = t.time_column ? '' : ' (from output_config.time_column)';
    throw badRequest(
      `The time column "${wantedTime}"${from} of "${a.target_table}" must be one of its loaded columns.`,
    );
  }
  const incremental = incrementalColumn(a);
  const mode = modeOf(c, a);
  const filters: Record<string, unknown>[] = [];
  if (Object.keys(renames).length > 0) filters.push({ type: 'rename', columns: renames });
  if (!timeColumn) filters.push({ type: 'add_time', to_column: { name: 'time' }, from_value: { mode: 'upload_time' } });
  for (const f of c.filter_configs) filters.push(f);
  return {
    timeColumn,
    config: {
      in: {
        ...sourceFields(auth),
        ...(c.basic_configs.database ? { database: c.basic_configs.database } : {}),
        schema: t.schema,
        table: t.table,
        columns: t.columns.map(({ name, type }) => ({ name, type })),
        incremental: incremental !== null,
        incremental_columns: incremental ? [incremental] : [],
        fetch_rows: 5000,
      },
      out: {
        type: 'svc_internal',
        plazma_dataset: c.output_config.database,
        mode,
        ...(mode === 'merge' ? { merge_keys: mergeKeysOf(a).map((k) => renames[k] ?? k) } : {}),
        ...(timeColumn ? { time_column: timeColumn } : {}),
      },
      filters,
      exec: {},
    },
  };
}

/** Merge mode needs a cursor (which row of a key is newest) and a key of loaded columns. */
function checkMerge(a: AdvancedConfig, at: string): void {
  const source = `${a.config.schema}.${a.config.table}`;
  if (incrementalColumn(a) === null) {
    throw badRequest(
      `"${at}.incremental_columns": merge mode needs an incremental column, which tells the newest row of a key; choose one (e.g. updated_at) or use mode "replace".`,
    );
  }
  const keys = mergeKeysOf(a);
  if (keys.length === 0) {
    throw badRequest(
      `"${at}.merge_keys": merge mode needs a key, and "${source}" has no primary key; name the columns that identify a row.`,
    );
  }
  const loaded = new Set(a.config.columns.map((col) => col.name));
  const seen = new Set<string>();
  for (const k of keys) {
    if (!loaded.has(k)) {
      throw badRequest(
        `"${at}.merge_keys": "${k}" is not a loaded column of "${source}"; load it or choose other key columns.`,
      );
    }
    if (seen.has(k)) throw badRequest(`"${at}.merge_keys" names "${k}" twice.`);
    seen.add(k);
  }
}

/** Checks configs (400 naming the field) and returns them normalised. */
export async function checkConfigs(deps: AppDeps, accountId: number, c: Create | Configs): Promise<Configs> {
  await requireAuthentication(deps, accountId, c.basic_configs.svc_authentication_id);
  const database = c.output_config.database;
  if (!DATA_NAME.test(database)) {
    throw badRequest('"output_config.database" must be 3 to 255 lowercase letters, digits or underscores.');
  }
  checkFilters(c.filter_configs, 'filter_configs');
  const out = c.output_config;
  const seen = new Set<string>();
  for (const [i, a] of c.advanced_configs.entries()) {
    const at = `advanced_configs[${i}].config`;
    checkSourceOptions(a.config as Record<string, unknown>, at);
    // A table may repeat the integration-wide choice but not contradict it: nothing is ignored silently.
    if (out.mode && a.config.mode && a.config.mode !== out.mode) {
      throw badRequest(
        `"${a.target_table}" says mode "${a.config.mode}" but output_config.mode is "${out.mode}": remove one or make them agree.`,
      );
    }
    const t = a.config.time_column;
    if (out.time_column && t && t !== out.time_column) {
      throw badRequest(
        `"${a.target_table}" says time_column "${t}" but output_config.time_column is "${out.time_column}": remove one or make them agree.`,
      );
    }
    if (modeOf(c as Configs, a) === 'merge') checkMerge(a, at);
    if (!DATA_NAME.test(a.target_table)) {
      throw badRequest(`"target_table" "${a.target_table}" must be 3 to 255 lowercase letters, digits or underscores.`);
    }
    if (seen.has(a.target_table))
      throw badRequest(`Two tables load into "${a.target_table}"; give each its own target table.`);
    seen.add(a.target_table);
  }
  return { ...c, filter_configs: c.filter_configs ?? [] };
}

/**
 * Whether a change of a table's config makes its loaded rows inconsistent with what later runs add, so
 * the next run must load it from scratch: another source table, mode, key, incremental column, or a
 * column's type. Adding or removing columns does not (new columns are empty in older rows).
 */
export function needsResync(
  before: Configs,
  a0: AdvancedConfig,
  after: Pick<Configs, 'output_config'>,
  a1: AdvancedConfig,
): boolean {
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  const types = (a: AdvancedConfig) => new Map(a.config.columns.map((col) => [col.name, col.type]));
  const t0 = types(a0);
  const changedType = [...types(a1)].some(([name, type]) => t0.has(name) && t0.get(name) !== type);
  const mode = modeOf(after, a1);
  return (
    changedType ||
    a0.config.schema !== a1.config.schema ||
    a0.config.table !== a1.config.table ||
    modeOf(before, a0) !== mode ||
    (mode === 'merge' && !same(mergeKeysOf(a0), mergeKeysOf(a1))) ||
    incrementalColumn(a0) !== incrementalColumn(a1)
  );
}
