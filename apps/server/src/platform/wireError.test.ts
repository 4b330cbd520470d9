import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { isStorageUnavailable, StorageUnavailable } from './storage';
import { fromWireError, toWireError } from './workerPool';

/** What a worker's error is once it has crossed to the thread that asked (structured clone included). */
const crossed = (err: unknown) => fromWireError(structuredClone(toWireError(err)));

describe('errors crossing from a worker thread', () => {
  it('keeps a lost database a StorageUnavailable, whatever form the driver gave it', () => {
    // The server ended the connection while the worker held it: PostgreSQL's FATAL, with its code only.
    const fatal = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const dropped = new Error('Connection terminated unexpectedly');
    for (const err of [fatal, dropped]) {
      const back = crossed(err);
      expect(back).toBeInstanceOf(StorageUnavailable);
      expect(isStorageUnavailable(back)).toBe(true);
      expect(back.message).toBe(err.message);
    }
  });

  it('keeps an ApiError its status and label, and any other error its name and message only', () => {
    const api = crossed(new ApiError(409, 'Conflict', 'Taken.'));
    expect(api).toBeInstanceOf(ApiError);
    expect((api as ApiError).status).toBe(409);
    const other = crossed(Object.assign(new TypeError('bad'), { code: '23505' }));
    expect(other).not.toBeInstanceOf(StorageUnavailable);
    expect([other.name, other.message]).toEqual(['TypeError', 'bad']);
  });
});
