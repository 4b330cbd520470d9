import { AuditLogPage } from '../features/audit';
import { useCurrentUser } from './currentUser';

export function AuditLogRoute() {
  return <AuditLogPage currentUser={useCurrentUser()} />;
}
