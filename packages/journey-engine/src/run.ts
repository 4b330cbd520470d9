import { compileJourney } from './compile';
import type { AdvanceContext, AdvanceOutput } from './profile';
import { ProfileWalker } from './profile';
import { isPausedAt, normalizePauses } from './time';
import type { ProfileState, RunInput, RunResult } from './types';

/**
 * One run of a launched journey at one instant: every profile of the parent segment is moved as far as
 * it can go. Deterministic and idempotent: the same input gives the same output, and feeding the changed
 * states back in at the same instant changes nothing. A draft or a journey paused at `at` is not run.
 *
 * Profiles with a state that are missing from `profiles` (no longer in the parent segment) are left
 * as they are.
 */
export function runJourney(input: RunInput): RunResult {
  const changed = new Map<string, ProfileState>();
  const out: AdvanceOutput = { events: [], queued: [] };
  const journey = compileJourney(input.journeyId, input.journey);
  if (!journey.launched) return { skipped: 'draft', changed, ...out };
  const pauses = normalizePauses(input.pauses);
  if (journey.paused || isPausedAt(pauses, input.at)) return { skipped: 'paused', changed, ...out };
  const ctx: AdvanceContext = { journey, pauses, isMember: input.isMember, at: input.at };
  const walker = new ProfileWalker(ctx, out);
  for (const profile of input.profiles) {
    const next = walker.advance(profile, input.states.get(profile.key));
    if (next) changed.set(profile.key, next);
  }
  return { skipped: false, changed, ...out };
}
