import { UsersPage } from '../features/users';
import { useCurrentUser } from './currentUser';

export function UsersRoute() {
  return <UsersPage currentUser={useCurrentUser()} />;
}
