import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isStoredJsonError, parseStored, StoredJsonError } from './storedJson';

describe('parseStored', () => {
  const shape = z.object({ id: z.number(), tags: z.array(z.string()) });

  it('returns the value its schema reads', () => {
    expect(parseStored(shape, '{"id":1,"tags":["a"]}', 'things.doc')).toEqual({ id: 1, tags: ['a'] });
  });

  it('names where the value was stored when it is not JSON', () => {
    expect(() => parseStored(shape, '{"id":', 'things.doc')).toThrow(
      'The data stored in things.doc does not have the shape this server expects (not JSON), so it could not be read.',
    );
  });

  it('names the first paths that do not match, without the stored values', () => {
    let caught: unknown;
    try {
      parseStored(shape, '{"id":"secret-ish","tags":[1]}', 'things.doc');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StoredJsonError);
    expect(isStoredJsonError(caught)).toBe(true);
    const message = (caught as Error).message;
    expect(message).toMatch(
      /^The data stored in things\.doc does not have the shape this server expects \(id: .+; tags\.0: .+\)/,
    );
    expect(message).not.toContain('secret-ish');
  });

  it('is recognised by its name after crossing a worker thread', () => {
    const crossed = new Error('The data stored in x does not have the shape this server expects (not JSON).');
    crossed.name = 'StoredJsonError';
    expect(isStoredJsonError(crossed)).toBe(true);
    expect(isStoredJsonError(new Error('other'))).toBe(false);
  });
});
