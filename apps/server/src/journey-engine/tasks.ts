import type { StatisticsWindow } from '@svc/journey-engine';
import type { JourneyRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { tryLock, withLock } from '../platform/storage';
import { work } from '../platform/work';
import type { TaskContext } from '../platform/workerRuntime';
import { estimateJourney } from './estimate';
import { type RunSummary, runJourneyNow } from './runner';
import { type SimulationRequest, simulateJourney } from './simulation';
import { statisticsOf } from './statistics';
import { windowOf } from './window';

/** Journey engine runs go to a background worker: reading states, moving profiles and saving the outcome. */

interface RunArgs {
  row: JourneyRow;
  trigger: 'schedule' | 'request';
}

export const journeyEngineTasks = {
  'journey-engine.run': (ctx: TaskContext, a: RunArgs) => runJourneyNow(ctx.deps, a.row, a.trigger),
  'journey-engine.estimate': (ctx: TaskContext, a: { row: JourneyRow }) => estimateJourney(ctx.deps, a.row),
  'journey-engine.simulate': (ctx: TaskContext, a: { row: JourneyRow; req: SimulationRequest }) =>
    simulateJourney(ctx.deps, a.row, a.req),
  'journey-engine.statistics': (ctx: TaskContext, a: { row: JourneyRow; window: StatisticsWindow }) =>
    statisticsOf(ctx.deps, a.row, a.window),
};

/**
 * A journey's statistics over a window (from/to as the request gives them; a window that makes no sense is a
 * 400 here, before any work), counted in a worker so the request loop stays free however large the journey.
 */
export function statisticsInWorker(deps: AppDeps, row: JourneyRow, from: string | undefined, to: string | undefined) {
  const window = windowOf(deps.clock.now().getTime(), from, to);
  return work(deps).run('journey-engine.statistics', { row, window });
}

/** The launch estimate (a dry run over every profile) in a worker. */
export function estimateInWorker(deps: AppDeps, row: JourneyRow) {
  return work(deps).run('journey-engine.estimate', { row });
}

/** A simulation (segment memberships and the states of the profiles it tries) in a worker. */
export function simulateInWorker(deps: AppDeps, row: JourneyRow, req: SimulationRequest) {
  return work(deps).run('journey-engine.simulate', { row, req });
}

/** The lock a journey's runs hold, on every node sharing the database. */
export const runLock = (row: Pick<JourneyRow, 'account_id' | 'id'>) => `journey-engine.run:${row.account_id}:${row.id}`;

function runInWorker(deps: AppDeps, row: JourneyRow, trigger: RunArgs['trigger']): Promise<RunSummary> {
  // One worker runs the journey for as long as it lives: it keeps the memberships of the last run (movers.ts).
  const lane = `journey:${row.account_id}:${row.id}`;
  return work(deps).run('journey-engine.run', { row, trigger } satisfies RunArgs, { lane, owner: lane });
}

/**
 * Runs a journey in a worker at the service clock's now. Runs of one journey never overlap: they share a
 * lane on this node and the journey's lock across nodes; this waits for a run under way to end first.
 */
export function runJourneyInWorker(deps: AppDeps, row: JourneyRow, trigger: RunArgs['trigger']): Promise<RunSummary> {
  return withLock(deps.storage, runLock(row), () => runInWorker(deps, row, trigger));
}

/** As runJourneyInWorker, but null at once when a run of the journey is under way (on any node). */
export async function runJourneyUnlessRunning(
  deps: AppDeps,
  row: JourneyRow,
  trigger: RunArgs['trigger'],
): Promise<RunSummary | null> {
  const attempt = await tryLock(deps.storage, runLock(row), () => runInWorker(deps, row, trigger));
  return attempt.ran ? attempt.value : null;
}
