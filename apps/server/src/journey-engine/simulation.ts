import { compileJourney, type EngineProfile, type ProfileState, simulateProfile } from '@svc/journey-engine';
import { type JourneyRow, journeyOfRow } from '../journeys';
import type { AppDeps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { populationFor } from './population';
import { pausesOf } from './runner';
import { stateOf, stateRowsOf } from './store';
import { parseInstant } from './window';

const DAY_MS = 86_400_000;
const MAX_SAMPLE = 20;
/** How many profiles a sample tries at most while looking for ones that enter. */
const MAX_SAMPLE_CANDIDATES = 500;
const MAX_DAYS = 730;

export interface SimulationRequest {
  profileKey?: string | undefined;
  sample?: number | undefined;
  until?: string | undefined;
  days?: number | undefined;
}

/** Profiles whose states are read at once while a sample is drawn. */
const SAMPLE_PAGE = 1000;

/** Where the given profiles are now in the journey (none for a draft), read by key. */
async function statesOf(deps: AppDeps, row: JourneyRow, keys: ReadonlyArray<string>) {
  const states = new Map<string, ProfileState>();
  if (row.state !== 'launched') return states;
  for (const r of await stateRowsOf(deps.storage.db, row.account_id, row.id, keys))
    states.set(r.profile_key, stateOf(r));
  return states;
}

/**
 * A dry run of a draft or launched journey for one chosen profile, or a sample of profiles that do
 * enter (said plainly when none do), from now to a future instant. Profiles already in a launched journey continue from where they
 * are. Segment memberships are today's; nothing is stored.
 */
export async function simulateJourney(
  deps: AppDeps,
  row: JourneyRow,
  req: SimulationRequest,
  /** Profiles whose states are read at once while a sample is drawn. */
  samplePage = SAMPLE_PAGE,
) {
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
  const population = await populationFor(deps, row.account_id, journey, now);
  const pauses = await pausesOf(deps.storage.db, row);
  const simulate = (profile: EngineProfile, state: ProfileState | null) => {
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
  };
  const note = 'Segment memberships are taken as they are now; a pause still going on is treated as ending now.';
  if (req.profileKey !== undefined) {
    if (!population.keys.includes(req.profileKey)) {
      throw badRequest(
        `There is no profile "${req.profileKey}" in the journey's parent segment; give the value of its key column.`,
      );
    }
    const states = await statesOf(deps, row, [req.profileKey]);
    const chosen = await population.profilesOf([req.profileKey]);
    return {
      data: chosen.map((p) => simulate(p, states.get(p.key) ?? null)),
      meta: { from: now.toISOString(), until: new Date(until).toISOString(), note },
    };
  }
  // A sample is of profiles that really take part: already in the journey, or entering it before `until`
  // (matching an entry segment is not enough: the goal, an exit segment or the overlap rule keep some out).
  const entries = compileJourney(String(row.id), journey)
    .stages.map((s) => s.entrySegment)
    .filter((s): s is string => s !== null);
  const size = Math.min(Math.max(req.sample ?? 5, 1), MAX_SAMPLE);
  const data: ReturnType<typeof simulate>[] = [];
  let tried = 0;
  // States are read a page of profiles at a time: a sample looks at the first few hundred profiles at most.
  pages: for (let i = 0; i < population.keys.length; i += samplePage) {
    const keys = population.keys.slice(i, i + samplePage);
    const [page, states] = await Promise.all([population.profilesOf(keys), statesOf(deps, row, keys)]);
    for (const p of page) {
      if (data.length >= size || tried >= MAX_SAMPLE_CANDIDATES) break pages;
      const state = states.get(p.key) ?? null;
      if (!entries.some((s) => population.isMember(s, p.key)) && state?.status !== 'active') continue;
      tried++;
      const path = simulate(p, state);
      if (path.startedInJourney || path.steps.some((s) => s.type === 'journey_entered')) data.push(path);
    }
  }
  const none =
    data.length === 0
      ? tried === 0
        ? 'No profile of the parent segment matches any stage’s entry criteria now, so nobody would enter. '
        : `None of the ${tried} profiles matching an entry criterion would enter before ${new Date(until).toISOString()}: the goal or an exit segment keeps them out. `
      : '';
  return {
    data,
    meta: {
      from: now.toISOString(),
      until: new Date(until).toISOString(),
      note: `${none}${note}`,
    },
  };
}
