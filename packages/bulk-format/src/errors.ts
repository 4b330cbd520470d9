/**
 * Why a part was refused. `too_large` parts break a size limit (a server answers 413); `limit` and
 * `corrupt` parts are malformed or break a structural limit (400).
 */
export type BulkFormatErrorCode = 'too_large' | 'limit' | 'corrupt';

export class BulkFormatError extends Error {
  constructor(
    readonly code: BulkFormatErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BulkFormatError';
  }
}

export const isBulkFormatError = (e: unknown): e is BulkFormatError => e instanceof BulkFormatError;
