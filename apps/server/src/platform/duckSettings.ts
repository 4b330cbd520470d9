import type { DuckDBConnection } from '@duckdb/node-api';

/**
 * The one rule for how a DuckDB file of customer rows is opened (decisions 0031 and 0032): the data plane's
 * owner opens every file with these settings, and a query job refuses to run on an instance without them.
 * - no file or network access from SQL, no extension installing or loading, configuration locked (a query
 *   cannot SET its way out);
 * - a memory limit per file (DuckDB's buffer pool spills to disk beyond it), which is also a query job's;
 * - the value rules query jobs answer by: integer division for integers, NULLs first in ascending order and
 *   last in descending (as the SQLite engine did).
 */
export function duckSandboxSettings(memoryLimitBytes: number): Record<string, string> {
  return {
    enable_external_access: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    memory_limit: `${Math.max(1, Math.floor(memoryLimitBytes / 1048576))}MB`,
    integer_division: 'true',
    default_null_order: 'nulls_first_on_asc_last_on_desc',
    lock_configuration: 'true',
  };
}

const sandboxed = new WeakSet<DuckDBConnection>();

/**
 * Refuses to run on a connection whose instance is not sandboxed (a wiring mistake, not the query's). Checked once
 * per connection: a locked configuration cannot change afterwards.
 */
export async function checkSandboxed(connection: DuckDBConnection): Promise<void> {
  if (sandboxed.has(connection)) return;
  const reader = await connection.runAndReadAll(
    "SELECT current_setting('enable_external_access'), current_setting('lock_configuration'), current_setting('integer_division')",
  );
  const [external, locked, division] = reader.getRows()[0] ?? [];
  if (external !== false || locked !== true || division !== true) {
    throw new Error(
      'The DuckDB instance was not opened with the query sandbox settings (duckSandboxSettings): query jobs cannot run on it.',
    );
  }
  sandboxed.add(connection);
}
