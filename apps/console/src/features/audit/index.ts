export { AuditLogPage } from './AuditLogPage';
export { auditKeys, auditLogQueryOptions } from './api';
