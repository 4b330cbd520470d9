import type { SavedQuery, SavedQueryEngine } from '@svc/contracts';
import { accountJobStates } from '../jobs';
import type { Executor } from '../platform/storage';
import { isoTime } from '../platform/time';
import type { SavedQueryView } from './store';

/** Saved queries as the wire shows them, with the state of each one's last run read from its job. */
export async function toWireSavedQueries(
  ex: Executor,
  accountId: number,
  rows: readonly SavedQueryView[],
  editable: (row: SavedQueryView) => boolean,
): Promise<SavedQuery[]> {
  const ids = rows.flatMap((r) => (r.last_job_id === null ? [] : [Number(r.last_job_id)]));
  const states = new Map((await accountJobStates(ex, accountId, ids)).map((j) => [Number(j.id), j.status]));
  return rows.map((r) => ({
    id: String(r.id),
    name: r.name,
    description: r.description,
    engine: r.type as SavedQueryEngine,
    database: r.database_name,
    query: r.query,
    owner: r.user_id === null ? null : { id: String(r.user_id), name: r.owner_name ?? '' },
    lastRun:
      r.last_job_id === null || r.last_run_at === null
        ? null
        : {
            jobId: String(r.last_job_id),
            at: isoTime(new Date(Number(r.last_run_at))),
            status: states.get(Number(r.last_job_id)) ?? null,
          },
    createdAt: isoTime(new Date(Number(r.created_at))),
    updatedAt: isoTime(new Date(Number(r.updated_at))),
    editable: editable(r),
  }));
}
