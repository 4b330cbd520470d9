import type { Schedule } from '@svc/contracts';
import { isoSeconds } from '../platform/time';
import { maskUrl } from '../results';
import { nextSlot } from './slots';
import type { ScheduleView } from './store';

/** Schedule rows as the /v3 schedule objects (OAS `Schedule`; td-client-ruby/python/node, the td CLI). */

const iso = (ms: number | null) => (ms === null ? null : isoSeconds(new Date(ms)));

export function toWireSchedule(row: ScheduleView, now: number): Schedule {
  return {
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    delay: row.delay,
    type: row.type,
    database: row.database_name,
    query: row.query,
    priority: row.priority,
    retry_limit: row.retry_limit,
    result: row.result ? maskUrl(row.result) : '',
    engine_version: row.engine_version ?? '',
    next_time: row.paused_at === null ? iso(nextSlot(row, now)) : null,
    paused: row.paused_at !== null,
    created_at: iso(row.created_at) as string,
    user_name: row.user_name ?? '',
  };
}
