import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { unpackMultiple } from 'msgpackr';
import { duckSandboxSettings } from '../../platform/duckSettings';
import { type DuckQueryTask, runDuckQuery } from '../query/duckdb/runQuery';
import type { QueryOutcome } from '../query/outcome';

/**
 * A DuckDB file in a temporary directory, opened with the query sandbox's settings, in the agreed layout:
 * tables are made by the tests themselves (`time BIGINT NOT NULL`, then the schema's columns) with their rows
 * in the figures table `"_svc$tables"`. `query` runs a job's query through runDuckQuery and reads its rows back
 * from the msgpack file.
 */
export interface DuckTestDatabase {
  connection: DuckDBConnection;
  dir: string;
  /** A table in the agreed layout, with its schema in the figures table. */
  createTable(name: string, schema: [string, string][], rows: unknown[][]): Promise<void>;
  query(
    sql: string,
    options?: Partial<Omit<DuckQueryTask, 'msgpackPath' | 'gzipPath' | 'query'>>,
  ): Promise<QueryOutcome & { rows: unknown[][] }>;
  close(): void;
}

const COLUMN_TYPES: Record<string, string> = {
  long: 'BIGINT',
  int: 'BIGINT',
  boolean: 'BIGINT',
  double: 'DOUBLE',
  float: 'DOUBLE',
  string: 'VARCHAR',
  binary: 'BLOB',
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (v: unknown) =>
  v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);

export async function startDuckTestDatabase(memoryLimitBytes = 256 * 1048576): Promise<DuckTestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'duck-query-'));
  const instance = await DuckDBInstance.create(join(dir, 'db.duckdb'), {
    ...duckSandboxSettings(memoryLimitBytes),
    threads: '2',
  });
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE "_svc$tables" (name VARCHAR PRIMARY KEY, schema_json VARCHAR NOT NULL,
    row_count BIGINT NOT NULL, bytes BIGINT NOT NULL, max_time BIGINT, updated_at BIGINT)`);
  let sequence = 0;
  return {
    connection,
    dir,
    async createTable(name, schema, rows) {
      const columns = schema.map(([column, type]) => `${ident(column)} ${COLUMN_TYPES[type] ?? 'VARCHAR'}`);
      await connection.run(
        `CREATE TABLE ${ident(name)} (time BIGINT NOT NULL${columns.map((c) => `, ${c}`).join('')})`,
      );
      for (let at = 0; at < rows.length; at += 500) {
        const values = rows.slice(at, at + 500).map((row) => `(${row.map(literal).join(', ')})`);
        await connection.run(`INSERT INTO ${ident(name)} VALUES ${values.join(', ')}`);
      }
      await connection.run(
        `INSERT INTO "_svc$tables" VALUES (${literal(name)}, ${literal(JSON.stringify(schema))}, ${rows.length}, 0, NULL, NULL)`,
      );
    },
    async query(sql, options = {}) {
      const msgpackPath = join(dir, `result-${++sequence}.msgpack`);
      const outcome = await runDuckQuery(connection, {
        query: sql,
        type: 'presto',
        database: 'db',
        nowMs: Date.now(),
        maxResultBytes: 64 * 1048576,
        timeLimitSeconds: 30,
        ...options,
        msgpackPath,
        gzipPath: `${msgpackPath}.gz`,
      });
      const bytes = readFileSync(msgpackPath);
      const rows = bytes.length === 0 ? [] : (unpackMultiple(bytes) as unknown[][]);
      return { ...outcome, rows };
    },
    close() {
      connection.closeSync();
      instance.closeSync();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
