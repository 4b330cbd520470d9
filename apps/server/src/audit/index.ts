/** The audit log: other features append entries here, and read nothing else from it. */

export { auditRoutes } from './routes';
export { about, auditAction, recordAudit } from './store';
