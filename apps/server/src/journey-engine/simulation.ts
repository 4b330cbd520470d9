import { compileJourney, simulateProfile } from '@svc/journey-engine';
import type { JourneyRow } from '../journeys/store';
import { journeyOfRow } from '../journeys/wire';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { populationFor } from './population';
import { pausesOf } from './runner';
import { loadState } from './store';
import { parseInstant } from './window';

const DAY_MS = 86_400_000;
export const MAX_SAMPLE = 20;
const MAX_DAYS = 730;

export interface SimulationRequest {
  profileKey?: string | undefined;
  sample?: number | undefined;
  until?: string | undefined;
  days?: number | undefined;
}

/**
 * A dry run of a draft or launched journey for one chosen profile, or a sample of profiles that would
 * enter, from now to a future instant. Profiles already in a launched journey continue from where they
 * are. Segment memberships are today's; nothing is stored.
 */
export function simulateJourney(deps: AppDeps, row: JourneyRow, req: SimulationRequest) {
  const now = deps.clock.now();
  const from = now.getTime();
  const until = req.until !== undefined ? parseInstant(req.until, 'until', true) : from + (req.days ?? 30) * DAY_MS;
  if (until <= from) {
    throw badRequest(`"until" (${new Date(until).toISOString()}) is not in the future; choose a later time.`);
  }
  if (until - from > MAX_DAYS * DAY_MS) {
    throw badRequest(`Simulations reach at most ${MAX_DAYS} days ahead; choose an earlier "until" or fewer "days".`);
  }
  const journey = journeyOfRow(row);
  const population = populationFor(deps, row.account_id, journey, now);
  let chosen = population.profiles;
  if (req.profileKey !== undefined) {
    chosen = population.profiles.filter((p) => p.key === req.profileKey);
    if (chosen.length === 0) {
      throw badRequest(
        `There is no profile "${req.profileKey}" in the journey's parent segment; give the value of its key column.`,
      );
    }
  } else {
    const entries = compileJourney(String(row.id), journey)
      .stages.map((s) => s.entrySegment)
      .filter((s): s is string => s !== null);
    const inJourney = (key: string) =>
      row.state === 'launched' && loadState(deps.db, row.account_id, row.id, key)?.status === 'active';
    const size = Math.min(Math.max(req.sample ?? 5, 1), MAX_SAMPLE);
    chosen = [];
    for (const p of population.profiles) {
      if (chosen.length >= size) break;
      if (entries.some((s) => population.isMember(s, p.key)) || inJourney(p.key)) chosen.push(p);
    }
  }
  const pauses = pausesOf(deps.db, row);
  const data = chosen.map((profile) => {
    const state = row.state === 'launched' ? loadState(deps.db, row.account_id, row.id, profile.key) : null;
    const result = simulateProfile({
      journeyId: String(row.id),
      journey: { ...journey, paused: false },
      profile,
      ...(state ? { state } : {}),
      from,
      until,
      pauses,
      isMember: population.isMember,
    });
    return {
      profileKey: profile.key,
      startedInJourney: state?.status === 'active',
      stoppedBecause: result.stoppedBecause,
      position: result.state
        ? { status: result.state.status, stageId: result.state.stageId, stepId: result.state.stepId }
        : null,
      steps: result.steps.map((s) => ({
        at: new Date(s.at).toISOString(),
        type: s.event.type,
        stageId: s.event.stageId ?? null,
        stepId: s.event.stepId ?? null,
        explanation: s.explanation,
      })),
    };
  });
  return {
    data,
    meta: {
      from: now.toISOString(),
      until: new Date(until).toISOString(),
      note: 'Segment memberships are taken as they are now; a pause still going on is treated as ending now.',
    },
  };
}
