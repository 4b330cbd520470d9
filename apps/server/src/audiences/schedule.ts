import { type JobRunner, jobColumnOf } from '../jobs';
import type { AppDeps } from '../platform/context';
import { isTimedSchedule, lastSlot } from '../platform/schedule';
import { claimSlot, many, sql } from '../platform/storage';
import { startBuild } from './buildJob';
import type { ParentSegmentRow } from './store';

interface ScheduledRow extends ParentSegmentRow {
  build_queued_at: number | null;
}

/**
 * Rebuilds of parent segments on their schedule: `hourly` at minute MM or `daily` at HH:MM (scheduleOption
 * `HH:MM`) in the segment's time zone; other schedule types are rebuilt only by hand. A slot queues one build
 * unless one is already queued or running; a failed build waits for the next slot. The build runs as the
 * segment's creator (or last editor), so it shows in their job list. Every node ticks: the one that claims
 * the slot (`claimSlot`) queues the build. Returns how many builds this node queued.
 */
export function audienceScheduleTick(deps: AppDeps, jobs: JobRunner): (now: number) => Promise<number> {
  return async (now) => {
    // The schedule is the one place that looks across accounts; each build is scoped by its row's account.
    const rows = await many<ScheduledRow>(
      deps.storage.db,
      sql`SELECT p.*, ${jobColumnOf('status', 'p.build_job_id', 'p.account_id')} AS build_status,
            ${jobColumnOf('created_at', 'p.build_job_id', 'p.account_id')} AS build_queued_at
            FROM parent_segments p
           WHERE p.schedule_type IN ('hourly', 'daily')`,
    );
    let queued = 0;
    for (const row of rows) {
      if (!isTimedSchedule(row.schedule_type)) continue;
      if (row.build_status === 'queued' || row.build_status === 'running') continue;
      const userId = row.created_by ?? row.updated_by;
      if (userId === null) continue;
      const since = Math.max(row.created_at, row.matrix_updated_at ?? 0, row.build_queued_at ?? 0) + 1;
      const slot = lastSlot(row.schedule_type, row.schedule_option, row.timezone, now);
      if (slot < since) continue;
      if (!(await claimSlot(deps.storage.db, `audience:${row.id}:${row.created_at}`, slot, now))) continue;
      await startBuild(deps, jobs, row, userId);
      queued++;
    }
    return queued;
  };
}
