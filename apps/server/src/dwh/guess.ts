import type { GuessResult, TableConfig } from '@svc/contracts';
import type pg from 'pg';
import { canBeIncremental, canBeTime, mapColumn, type SourceColumnInfo } from './typeMap';
import { describeTable } from './warehouse';

/**
 * The guess: for each wanted table, its columns with mapped types (unmappable ones listed as skipped),
 * append mode, an incremental column when one is obvious (an `updated_at`-like timestamp, else a whole-number
 * primary key), a time column when a timestamp looks like one, the key of merge mode (the primary key), and
 * a schedule suggestion (daily for incremental tables, by hand otherwise). Every choice can be edited
 * before POST /v1/dwh/.
 */

/** A table name our catalog accepts: lowercase letters, digits and `_`, 3 to 255 characters. */
function targetTableName(source: string): string {
  let name = source.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  while (name.length < 3) name += '_';
  return name.slice(0, 255);
}

const UPDATED = /^(updated|modified|changed)(_at|_on|_time)?$|^last_(updated|modified)/i;
const CREATED = /^(created|inserted|event|occurred)(_at|_on|_time)?$|^(timestamp|ts)$/i;

function pickIncremental(info: SourceColumnInfo[]): string[] {
  const candidates = info.filter(canBeIncremental);
  const updated = candidates.find((c) => UPDATED.test(c.name));
  if (updated) return [updated.name];
  const pk = info.filter((c) => c.primary_key);
  if (pk.length === 1 && pk[0] && canBeIncremental(pk[0]) && mapColumn(pk[0]).type === 'long') return [pk[0].name];
  return [];
}

function pickTime(info: SourceColumnInfo[]): string | null {
  const times = info.filter(
    (c) => canBeTime(c) && mapColumn(c).options.includes('long') && !/^int|^big|^small/.test(c.source_type),
  );
  return (times.find((c) => CREATED.test(c.name)) ?? times.find((c) => UPDATED.test(c.name)))?.name ?? null;
}

type GuessedTable = GuessResult['advanced_configs'][number];

export async function guessTable(client: pg.Client, schema: string, table: string): Promise<GuessedTable> {
  const info = await describeTable(client, schema, table);
  const mapped = info.map(mapColumn);
  const incremental = pickIncremental(info);
  const primaryKey = info.filter((c) => c.primary_key).map((c) => c.name);
  const config: TableConfig = {
    type: 'postgresql',
    source_type: 'table_view',
    schema,
    table,
    columns: mapped.flatMap((c) =>
      c.type ? [{ name: c.name, type: c.type, source_type: c.source_type, options: c.options }] : [],
    ),
    skipped: mapped.flatMap((c) =>
      c.skipped_reason ? [{ column: c.name, source_type: c.source_type, reason: c.skipped_reason }] : [],
    ),
    mode: 'append',
    incremental: incremental.length > 0,
    incremental_columns: incremental,
    incremental_candidates: info.filter(canBeIncremental).map((c) => c.name),
    time_column: pickTime(info),
    primary_key: primaryKey,
    // The key of merge mode, when chosen: the source's primary key, editable.
    merge_keys: primaryKey,
  };
  const schedule = config.incremental ? { schedule_type: 'daily' as const, schedule_option: '00:00' } : null;
  return { target_table: targetTableName(table), config, schedule };
}

/** `schema.table` or a bare name in the default schema. */
function splitTableName(name: string, defaultSchema: string): [string, string] {
  const dot = name.indexOf('.');
  return dot > 0 ? [name.slice(0, dot), name.slice(dot + 1)] : [defaultSchema, name];
}

export async function guess(
  client: pg.Client,
  basic: {
    svc_authentication_id: number;
    database: string;
    schema: string;
    tables: string[];
    target_database?: string;
  },
): Promise<GuessResult> {
  const advanced: GuessedTable[] = [];
  for (const name of basic.tables) {
    const [schema, table] = splitTableName(name, basic.schema);
    advanced.push(await guessTable(client, schema, table));
  }
  return {
    basic_configs: {
      type: 'postgresql',
      svc_authentication_id: basic.svc_authentication_id,
      database: basic.database,
      schema: basic.schema,
      tables: basic.tables,
      // Our database names follow the table-name rule, so the warehouse's name is made to fit it.
      target_database: basic.target_database || targetTableName(basic.database),
    },
    advanced_configs: advanced,
  };
}
