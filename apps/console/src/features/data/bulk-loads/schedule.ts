import type { BulkLoadJob, BulkLoadSession } from '@svc/contracts';

/** "0 * * * * (UTC)", or "Manual" for a session that runs only when asked. */
export function scheduleText(session: Pick<BulkLoadSession, 'cron' | 'timezone'>): string {
  return session.cron ? `${session.cron} (${session.timezone})` : 'Manual';
}

/** The kind of source, from `config.in.type`. */
export function sourceType(session: Pick<BulkLoadSession, 'config'>): string {
  const input = session.config.in;
  if (input && typeof input === 'object' && typeof (input as Record<string, unknown>).type === 'string') {
    return (input as Record<string, string>).type as string;
  }
  return '—';
}

/** Seconds from start to end, or null while it has not ended. */
export function jobSeconds(job: Pick<BulkLoadJob, 'start_at' | 'end_at'>): number | null {
  return job.start_at === null || job.end_at === null ? null : Math.max(0, job.end_at - job.start_at);
}
