export { AuditLogPage } from './AuditLogPage';
