import { SsoSettingsPage } from '../features/sso';
import { useCurrentUser } from './currentUser';

export function SsoRoute() {
  return <SsoSettingsPage currentUser={useCurrentUser()} />;
}
