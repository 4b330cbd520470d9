import type { JourneyRow } from '../journeys/store';
import type { AppDeps } from '../platform/context';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { estimateJourney } from './estimate';
import { type RunSummary, runJourneyNow } from './runner';

/** Journey engine runs go to a background worker: reading states, moving profiles and saving the outcome. */

interface RunArgs {
  row: JourneyRow;
  trigger: 'schedule' | 'request';
}

export const journeyEngineTasks = {
  'journey-engine.run': (ctx: TaskContext, a: RunArgs) => runJourneyNow(ctx.deps, a.row, a.trigger),
  'journey-engine.estimate': (ctx: TaskContext, a: { row: JourneyRow }) => estimateJourney(ctx.deps, a.row),
};

/** The launch estimate (a dry run over every profile) in a worker. */
export function estimateInWorker(deps: AppDeps, row: JourneyRow): Promise<ReturnType<typeof estimateJourney>> {
  return work(deps).run('journey-engine.estimate', { row });
}

/** Runs a journey in a worker at the service clock's now; runs of one journey never overlap (its lane). */
export function runJourneyInWorker(
  deps: AppDeps,
  row: JourneyRow,
  trigger: 'schedule' | 'request',
): Promise<RunSummary> {
  return work(deps).run<RunSummary>('journey-engine.run', { row, trigger } satisfies RunArgs, {
    lane: `journey:${row.account_id}:${row.id}`,
  });
}
