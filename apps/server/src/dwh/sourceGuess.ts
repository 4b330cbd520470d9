import type { GuessedInput } from '../bulk-loads';
import { SourceError } from '../bulk-loads';
import type { AppDeps } from '../platform/context';
import { type ConnectOptions, WarehouseError, withConnection } from './connection';
import { guessTable } from './guess';
import { resolveSpec } from './postgresSource';
import { landedName } from './tableConfigs';

/**
 * The guess of a typed-in `postgresql` bulk load input (`POST /v3/bulk_loads/guess`, `td connector:guess`):
 * the same guess as the warehouse sync's (guess.ts) on the one table the input names, returned as the
 * input's `columns`, incremental choice, time column and renames. Failures a person can fix are SourceErrors.
 */
export async function guessPostgresInput(
  deps: AppDeps,
  options: ConnectOptions,
  accountId: number,
  input: Record<string, unknown>,
): Promise<GuessedInput> {
  if (typeof input.table !== 'string' || input.table === '') {
    throw new SourceError('Name the table to load in "config.in.table" (and its schema in "schema", default public).');
  }
  const schema = typeof input.schema === 'string' && input.schema !== '' ? input.schema : 'public';
  const spec = await resolveSpec(deps, accountId, input);
  let guessed: Awaited<ReturnType<typeof guessTable>>;
  try {
    guessed = await withConnection(spec, options, (client) => guessTable(client, schema, input.table as string));
  } catch (err) {
    if (err instanceof WarehouseError) throw new SourceError(err.message);
    throw err;
  }
  const t = guessed.config;
  const renames: Record<string, string> = {};
  for (const c of t.columns) {
    const to = landedName(c.name);
    if (to !== c.name) renames[c.name] = to;
  }
  return {
    input: {
      ...input,
      schema,
      table: t.table,
      columns: t.columns.map(({ name, type }) => ({ name, type })),
      incremental: t.incremental === true,
      incremental_columns: t.incremental_columns ?? [],
    },
    timeColumn: t.time_column ?? null,
    renames,
  };
}
