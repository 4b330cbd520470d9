import type { z } from 'zod';

/**
 * JSON the service stored itself (documents, settings, schemas, configs, job parameters) is read back through
 * the zod schema that is also its type. A value that does not match was not written by this version of the
 * server (a bug, or a hand edit of the database): it fails here, naming where it was stored, instead of
 * travelling on as a wrong type. `http.ts` answers it with a 500 that says so; jobs end in error with it.
 */
export class StoredJsonError extends Error {
  override name = 'StoredJsonError';
  constructor(where: string, problem: string) {
    super(
      `The data stored in ${where} does not have the shape this server expects (${problem}), so it could not be read.`,
    );
  }
}

/** Whether an error is a StoredJsonError, also after it crossed a worker thread (which keeps name and message). */
export const isStoredJsonError = (err: unknown): boolean => err instanceof Error && err.name === 'StoredJsonError';

/** Parses `text` as JSON and checks it with `schema`; `where` names the table and column, e.g. `tables.schema_json`. */
export function parseStored<S extends z.ZodType>(schema: S, text: string, where: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StoredJsonError(where, 'not JSON');
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'the value'}: ${i.message}`);
  throw new StoredJsonError(where, issues.join('; '));
}
