import type { ConsoleUser } from '@svc/contracts';

/** Why a user cannot be removed (the server refuses the same cases), or null when they can. */
export function removalBlocker(user: Pick<ConsoleUser, 'id' | 'accountOwner'>, currentUserId: number): string | null {
  if (user.id === currentUserId) return 'You cannot remove yourself.';
  if (user.accountOwner) return 'The owner of the account cannot be removed.';
  return null;
}
