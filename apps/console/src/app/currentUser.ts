import type { Me } from '@svc/contracts';
import { createContext, useContext } from 'react';

/** The signed-in user, provided by RequireSession once the server has confirmed the session. */
export const CurrentUserContext = createContext<Me | null>(null);

export function useCurrentUser(): Me {
  const me = useContext(CurrentUserContext);
  if (!me) throw new Error('useCurrentUser is only available on pages under RequireSession.');
  return me;
}
