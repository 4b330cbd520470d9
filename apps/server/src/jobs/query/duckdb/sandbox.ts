import type { DuckDBConnection } from '@duckdb/node-api';
import { PASS_THROUGH, PRESTO_TYPED } from '../postgres/allowedFunctions';
import { QueryRefused } from '../tokens';
import { UDF_NAMES } from './functions';

/**
 * The sandbox of a query job on DuckDB, in three layers:
 * - the instance: external access off (no files, no network, no extensions), configuration locked, a memory
 *   limit (platform/duckSettings.ts, which the file's owner opens it with; checkSandboxed refuses to run a query
 *   on a connection without them);
 * - the text: statements DuckDB has beyond SQL (INSTALL, LOAD, COPY, EXPORT, SET…) are refused by name
 *   (refuseDuckStatements), after the shared guard (guard.ts);
 * - the parse tree of the translated SQL (`json_serialize_sql`): every table it names must be a table of the
 *   database (or a CTE), never a helper table (`_svc$tables`), a catalog view or another schema or database,
 *   and every function must be one the translator writes (inspectDuckQuery).
 */

const STATEMENT_MESSAGES: Record<string, string> = {
  INSTALL: 'INSTALL is not allowed: queries cannot install or load extensions.',
  LOAD: 'LOAD is not allowed: queries cannot install or load extensions.',
  COPY: 'COPY is not allowed: queries cannot read or write files.',
  EXPORT: 'EXPORT is not allowed: queries cannot read or write files.',
  IMPORT: 'IMPORT is not allowed: queries cannot read or write files.',
  SET: 'SET is not allowed: queries cannot read or change settings.',
  RESET: 'RESET is not allowed: queries cannot read or change settings.',
  CALL: 'CALL is not allowed: a query is one SELECT statement.',
  CHECKPOINT: 'CHECKPOINT is not allowed: queries cannot change the database file.',
  USE: 'USE is not allowed: a query reads only the database it was issued on.',
};

/** DuckDB's own statements, refused by name before the shared guard gives its generic message. */
export function refuseDuckStatement(firstWord: string): void {
  const message = STATEMENT_MESSAGES[firstWord.toUpperCase()];
  if (message) throw new QueryRefused(message);
}

/** What the translator writes besides the allow-list shared with PostgreSQL and the svc_ functions. */
const NATIVE = new Set([
  'count_star',
  'strftime',
  'timezone',
  'to_timestamp',
  'make_timestamp',
  'quantile_disc',
  'any_value',
  'arg_max_null',
  'arg_min_null',
  'array_agg',
  'json_array',
  'list_value',
  'unnest',
  'greatest',
  'least',
  'round',
  'regexp_like',
]);

const FILE_READER = /^(read_|glob$|parquet_|sniff_csv$|iceberg|delta_scan$|sqlite_|postgres_|mysql_)/;

/**
 * A query that would reach outside its database (a file reader): refused when it is issued. Anything else the
 * translator or the sandbox cannot take (a function this engine does not have) is, as on SQLite and
 * PostgreSQL, queued, and its job ends with the message.
 */
export class SandboxEscape extends QueryRefused {}

/** Refuses a function by name; the file readers with a message of their own. */
export function refuseFunction(name: string): never {
  if (FILE_READER.test(name)) {
    throw new SandboxEscape(`Reading files (${name}) is not allowed: a query reads only its own database's tables.`);
  }
  throw new QueryRefused(
    `The function ${name} is not supported on this query engine; docs/query-dialect.md lists the functions you can use.`,
  );
}

type Node = Record<string, unknown>;

function walk(value: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (value !== null && typeof value === 'object') {
    visit(value as Node);
    for (const child of Object.values(value)) walk(child, visit);
  }
}

/**
 * The relations a bare name can reach: the file's customer tables, and the rest (helper tables, the catalog
 * views of the main and pg_catalog schemas).
 */
async function relations(connection: DuckDBConnection): Promise<{ tables: Set<string>; others: Set<string> }> {
  const reader = await connection.runAndReadAll(
    `SELECT lower(table_name), database_name = current_database() AND schema_name = 'main' AND NOT internal
       AND NOT contains(table_name, '$') FROM duckdb_tables()
     UNION ALL SELECT lower(view_name), false FROM duckdb_views() WHERE schema_name IN ('main', 'pg_catalog')`,
  );
  const tables = new Set<string>();
  const others = new Set<string>();
  for (const [name, customer] of reader.getRows() as [string, boolean][]) (customer ? tables : others).add(name);
  return { tables, others };
}

/** What the top SELECT reads: its tables (lower case), and the column each select item names, if any. */
export interface QueryShape {
  tables: string[];
  columns: (string | null)[];
  /** A `*` among the items: result columns are matched to table columns by name. */
  star: boolean;
}

function shapeOf(statement: Node | undefined): QueryShape {
  const node = statement?.node as Node | undefined;
  if (node?.type !== 'SELECT_NODE') return { tables: [], columns: [], star: false };
  const tables: string[] = [];
  const collect = (from: unknown) => {
    const f = from as Node | null;
    if (f?.type === 'BASE_TABLE') tables.push(String(f.table_name).toLowerCase());
    else if (f?.type === 'JOIN') {
      collect(f.left);
      collect(f.right);
    }
  };
  collect(node.from_table);
  const items = (node.select_list as Node[] | undefined) ?? [];
  return {
    tables,
    star: items.some((item) => item.class === 'STAR'),
    columns: items.map((item) =>
      item.class === 'COLUMN_REF' ? ((item.column_names as string[]).at(-1) ?? null) : null,
    ),
  };
}

/**
 * Checks translated SQL on DuckDB's parse tree: the tables it reads and the functions it calls, and returns the
 * shape of its top SELECT. SQL DuckDB cannot parse passes (it fails when it runs, with DuckDB's message).
 */
export async function inspectDuckQuery(connection: DuckDBConnection, sql: string): Promise<QueryShape> {
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  const tree = JSON.parse(String(reader.getRows()[0]?.[0])) as { error: boolean; statements?: Node[] };
  if (tree.error) return shapeOf(undefined);
  const ctes = new Set<string>();
  walk(tree.statements, (node) => {
    const map = (node.cte_map as { map?: { key: string }[] } | undefined)?.map;
    for (const entry of map ?? []) ctes.add(entry.key.toLowerCase());
  });
  const { tables, others } = await relations(connection);
  for (const name of ctes) {
    if (others.has(name) && !tables.has(name)) {
      throw new QueryRefused(`The name ${name} is reserved by the engine: give the WITH query another name.`);
    }
  }
  walk(tree.statements, (node) => {
    if (node.type === 'BASE_TABLE') {
      const name = String(node.table_name);
      const qualifier = [node.catalog_name, node.schema_name].filter((q) => q !== '' && q !== undefined).join('.');
      if (qualifier !== '') {
        throw new QueryRefused(
          `${qualifier}.${name} cannot be read: a query reads only the tables of the database it was issued on.`,
        );
      }
      if (name.includes('$')) {
        throw new QueryRefused(`${name} is a table of the service: queries read only the database's own tables.`);
      }
      const key = name.toLowerCase();
      if (/[/\\.]/.test(name) && !tables.has(key) && !ctes.has(key)) {
        throw new QueryRefused(`Reading files (${name}) is not allowed: a query reads only its own database's tables.`);
      }
      // A name that is nothing here is left to DuckDB, whose error names it when the job runs.
      if (!tables.has(key) && !ctes.has(key) && others.has(key)) {
        throw new QueryRefused(
          `${name} cannot be read: a query reads only the tables of the database it was issued on.`,
        );
      }
    } else if (node.type === 'TABLE_FUNCTION') {
      const fn = (node.function as Node | undefined)?.function_name;
      refuseFunction(String(fn ?? 'a table function'));
    } else if (node.class === 'FUNCTION' && node.is_operator !== true) {
      const name = String(node.function_name).toLowerCase();
      const known =
        PASS_THROUGH.has(name) ||
        PRESTO_TYPED.has(name) ||
        NATIVE.has(name) ||
        (name.startsWith('svc_') && UDF_NAMES.has(name.slice(4)));
      // The parser writes some special forms (trim, list literals) as functions of the main schema.
      if (!known || !['', 'main'].includes(String(node.schema)) || node.catalog !== '') refuseFunction(name);
    }
  });
  return shapeOf(tree.statements?.[0]);
}
