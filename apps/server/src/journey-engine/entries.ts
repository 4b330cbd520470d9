import type { EngineEvent, ProfileState } from '@svc/journey-engine';

const DAY_MS = 86_400_000;

/** The Unix day (UTC) of an instant: how the journey's day counts (figureCounts.ts, abCounts.ts) bucket events. */
export const dayOf = (at: number) => Math.floor(at / DAY_MS);

/**
 * Some profiles' events in log order per profile, each with the entry it belongs to: 1 for a profile's first
 * entry into the journey, 2 and on for re-entries, Infinity when it cannot be known. `states` are the profiles'
 * states after these events (their `entries` count every entry); `wholeHistory` says the events are all the
 * journey ever logged for them, so their own `journey_entered` events count the entries.
 */
/** Events by profile, each with its entry (eventsByEntry). */
export type ByEntry = ReadonlyMap<string, ReadonlyArray<{ event: EngineEvent; entry: number }>>;

export function eventsByEntry(
  events: ReadonlyArray<EngineEvent>,
  states: ReadonlyMap<string, ProfileState>,
  wholeHistory: boolean,
): ByEntry {
  const perProfile = new Map<string, EngineEvent[]>();
  for (const e of events) {
    const list = perProfile.get(e.profileKey);
    if (list) list.push(e);
    else perProfile.set(e.profileKey, [e]);
  }
  const out = new Map<string, Array<{ event: EngineEvent; entry: number }>>();
  for (const [key, list] of perProfile) {
    let entered = 0;
    for (const e of list) if (e.type === 'journey_entered') entered++;
    const entries = wholeHistory ? entered : states.get(key)?.entries;
    // The entry the profile is in before its first event here (0: not yet entered).
    let entry = entries === undefined ? Number.POSITIVE_INFINITY : entries - entered;
    out.set(
      key,
      list.map((event) => {
        if (event.type === 'journey_entered') entry++;
        return { event, entry };
      }),
    );
  }
  return out;
}
