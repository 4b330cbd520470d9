import type { TargetType } from '@svc/contracts';

/**
 * What a bulk load reads from. A source kind (`config.in.type`, e.g. `postgresql`) is registered by the
 * feature that knows it (dwh/postgresSource.ts); the runner stages, converts and lands what it yields.
 */

export interface SourceColumn {
  /** The column's name in the source; the `rename` filter maps it to a column name. */
  name: string;
  type: TargetType;
}

export interface SourceRequest {
  accountId: number;
  /** The session's `config.in`, with stored credentials. */
  input: Record<string, unknown>;
  /** `config_diff.in` of the last successful run (incremental state), if any. */
  state: Record<string, unknown> | undefined;
  /** Source column whose value becomes `time` (Unix seconds), or null for the upload time. */
  timeColumn: string | null;
  /** Rows in the order of the incremental column (merge mode: the last row of a key is the newest). */
  orderByIncremental?: boolean;
  signal: AbortSignal;
}

export interface SourceStream {
  columns: SourceColumn[];
  /** Row values in the order of `columns`, then the time value (Unix seconds or null) when a time column was asked. */
  batches(): AsyncGenerator<unknown[][]>;
  /** The `config_diff.in` to keep once the rows have landed; read after the batches are exhausted. */
  nextState(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface BulkLoadSource {
  type: string;
  open(request: SourceRequest): Promise<SourceStream>;
  /** Completes a partial `config.in` by looking at the source (POST /v3/bulk_loads/guess), if the kind can. */
  guess?(request: { accountId: number; input: Record<string, unknown> }): Promise<GuessedInput>;
}

/** A failure of the source a person can act on; its message goes to the job's error as it is. */
export class SourceError extends Error {
  override name = 'SourceError';
}

/** What a source guesses from a partial `config.in` (POST /v3/bulk_loads/guess). */
export interface GuessedInput {
  /** `config.in` completed: the columns to load with their types, and any choice the source can make. */
  input: Record<string, unknown>;
  /** The source column that looks like each row's time, or null (the upload time is used). */
  timeColumn: string | null;
  /** Source columns whose names do not fit the column rule, with the column each lands in. */
  renames: Record<string, string>;
}
