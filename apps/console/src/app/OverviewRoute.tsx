import { OverviewPage } from '../features/overview';
import { useCurrentUser } from './currentUser';

export function OverviewRoute() {
  return <OverviewPage currentUser={useCurrentUser()} />;
}
