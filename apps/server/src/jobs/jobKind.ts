import type { AppDeps } from '../platform/context';
import type { Finish, JobRow } from './jobStore';

/** What a job kind gets while it runs. */
export interface JobContext {
  deps: AppDeps;
  /** Aborted when the job is killed or the server stops. */
  signal: AbortSignal;
  /** Appends a line of progress to the job's `debug.cmdout`. */
  log(line: string): void;
}

/** What a successful run leaves on the job. */
export type JobOutcome = Omit<Finish, 'status' | 'stderr'>;

/** A job issued through `POST /v3/job/issue/<type>/<db>` by a kind that is not a query (e.g. `bulkload`). */
export interface IssueRequest {
  accountId: number;
  userId: number;
  /** The database of the path; it exists in the account. */
  database: string;
  /** The request's parameters (JSON, form or query string). */
  params: Record<string, unknown>;
}
export type JobIssuer = (request: IssueRequest) => Promise<JobRow>;

/** A kind of job (query, bulk import perform…): the runner queues, starts, limits and ends its jobs. */
export interface JobKind {
  /** Values of `jobs.type` this kind runs. */
  types: readonly string[];
  /** Does the work; a thrown error's message becomes the job's `debug.stderr`. */
  run(job: JobRow, ctx: JobContext): Promise<JobOutcome>;
  /** Cleans up after a job that did not succeed (killed, failed, interrupted by a restart). */
  onFailed?(job: JobRow): void | Promise<void>;
  /** Releases the kind's resources when the runner stops. */
  close?(): void;
}
