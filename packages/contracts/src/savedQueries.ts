import { z } from 'zod';
import { jobStatus } from './jobs';

/**
 * Saved queries (`/entities/saved-queries`): queries kept on the server and shared in the account. Times are
 * ISO 8601 with milliseconds; ids are strings, as the console's other entities are.
 */

export const SAVED_QUERY_LIMITS = { name: 255, description: 2000, query: 200_000 } as const;

export const savedQueryEngine = z.enum(['presto', 'hive']);
export type SavedQueryEngine = z.infer<typeof savedQueryEngine>;

/** The last run of a saved query: its job, when it was issued and the job's state now. */
export const savedQueryRun = z.object({
  jobId: z.string(),
  at: z.string(),
  /** Null once the job is no longer in the account's job list. */
  status: jobStatus.nullable(),
});

export const savedQuery = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  engine: savedQueryEngine,
  database: z.string(),
  query: z.string(),
  /** The user who made it; null once that user is removed. */
  owner: z.object({ id: z.string(), name: z.string() }).nullable(),
  lastRun: savedQueryRun.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether the caller may change or delete it (administrators and its owner); anyone in the account runs it. */
  editable: z.boolean(),
});
export type SavedQuery = z.infer<typeof savedQuery>;

export const savedQueryList = z.object({ savedQueries: z.array(savedQuery) });
export const savedQueryAnswer = z.object({ savedQuery });

/** Create (every field but description required) and update (only what changes) bodies. */
export const savedQueryInput = z.object({
  name: z.string(),
  description: z.string().optional(),
  engine: savedQueryEngine,
  database: z.string(),
  query: z.string(),
});
export type SavedQueryInput = z.infer<typeof savedQueryInput>;
export const savedQueryPatch = savedQueryInput.partial();

/** POST …/:id/duplicate: the copy's name (default "Copy of <name>"). */
export const savedQueryDuplicate = z.object({ name: z.string().optional() });

/** POST …/:id/run: the job issued. */
export const savedQueryRunAnswer = z.object({ jobId: z.string(), savedQuery });
