/**
 * The storage errors features react to, recognised for both backends in one place: SQLite's extended result
 * codes (better-sqlite3 `code`) and PostgreSQL's SQLSTATE (pg `code`).
 */

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A UNIQUE or PRIMARY KEY constraint refused the write. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Runs a write; a UNIQUE constraint's refusal (a name taken meanwhile, say) becomes the caller's error. */
export async function unlessTaken<T>(write: Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** A FOREIGN KEY constraint refused the write (the referenced row is gone, or rows still refer to it). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * PostgreSQL could not compile or run a regular expression (SQLSTATE 2201B: too complex, or a construct the
 * translation of an RE2 pattern could not avoid); the rule's author gets a 400.
 */
export function isInvalidRegexp(err: unknown): boolean {
  return codeOf(err) === '2201B';
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);

/**
 * The database cannot be reached right now (PostgreSQL down, restarting, or the connection dropped): the
 * request gets a 503 and can be retried; nothing it asked for was acknowledged.
 */
export function isStorageUnavailable(err: unknown): boolean {
  if (err instanceof StorageUnavailable) return true;
  const code = codeOf(err);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now).
  if (code && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03')) return true;
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

export class StorageUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageUnavailable';
  }
}
