import { describe, expect, it } from 'vitest';
import { removalBlocker } from './removalBlocker';

describe('removalBlocker', () => {
  it('lets an administrator remove another ordinary user', () => {
    expect(removalBlocker({ id: 2, accountOwner: false }, 1)).toBeNull();
  });

  it('explains why you cannot remove yourself', () => {
    expect(removalBlocker({ id: 1, accountOwner: true }, 1)).toBe('You cannot remove yourself.');
  });

  it('explains why the owner cannot be removed', () => {
    expect(removalBlocker({ id: 1, accountOwner: true }, 2)).toBe('The owner of the account cannot be removed.');
  });
});
