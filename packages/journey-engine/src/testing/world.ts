import type { Journey } from '@svc/journey';
import { compileJourney } from '../compile';
import { definitionKey, type Membership, membershipMovers, wakesAfterRun } from '../movers';
import { runJourney } from '../run';
import { normalizePauses } from '../time';
import type {
  EngineEvent,
  EngineProfile,
  Instant,
  PauseInterval,
  ProfileState,
  QueuedActivation,
  RunResult,
} from '../types';
import { DAY_MS } from '../types';

const T0 = Date.UTC(2026, 0, 1);
export const day = (n: number): Instant => T0 + n * DAY_MS;

/**
 * What a persisted journey looks like to the engine, held in memory: states, the event log, the
 * activation queue, the pauses and segment memberships. `run(at)` does what the server's run does
 * with SQLite: run the engine and persist what changed.
 */
export class World {
  readonly states = new Map<string, ProfileState>();
  readonly events: EngineEvent[] = [];
  readonly queued: QueuedActivation[] = [];
  readonly pauses: PauseInterval[] = [];
  readonly segments = new Map<string, Set<string>>();
  profiles: EngineProfile[] = [];

  constructor(
    public journey: Journey,
    readonly journeyId = 'j1',
  ) {}

  addProfiles(keys: ReadonlyArray<string>, columns?: (key: string) => Record<string, unknown>) {
    for (const key of keys) this.profiles.push(columns ? { key, columns: columns(key) } : { key });
  }

  segment(id: string): Set<string> {
    let set = this.segments.get(id);
    if (!set) {
      set = new Set();
      this.segments.set(id, set);
    }
    return set;
  }

  join(segmentId: string, ...keys: string[]) {
    for (const key of keys) this.segment(segmentId).add(key);
  }

  leave(segmentId: string, ...keys: string[]) {
    for (const key of keys) this.segment(segmentId).delete(key);
  }

  pause(at: Instant) {
    this.pauses.push({ from: at, to: null });
    this.journey = { ...this.journey, paused: true };
  }

  resume(at: Instant) {
    const open = this.pauses.find((p) => p.to === null);
    if (open) open.to = at;
    this.journey = { ...this.journey, paused: false };
  }

  /** Wake times as the server stores them (movers.ts), for `runMovers`. */
  readonly wakes = new Map<string, Instant | null>();
  /** The memberships and definition of the last run `runMovers` did. */
  /** How many profiles the last `runMovers` looked at. */
  looked = 0;
  private seen: { membership: Membership; definition: string } | null = null;

  run(at: Instant, profiles: ReadonlyArray<EngineProfile> = this.profiles): RunResult {
    const result = runJourney({
      journeyId: this.journeyId,
      journey: this.journey,
      at,
      pauses: this.pauses,
      profiles,
      states: this.states,
      isMember: (segmentId, key) => this.segments.get(segmentId)?.has(key) ?? false,
    });
    for (const [key, state] of result.changed) this.states.set(key, state);
    this.events.push(...result.events);
    this.queued.push(...result.queued);
    return result;
  }

  /**
   * A run over the profiles that may move only (movers.ts), as the server runs once it has seen the
   * memberships of a run: those whose memberships changed since, and those whose wake time has come. The
   * first run, and the first after the definition changed, looks at everyone.
   */
  runMovers(at: Instant): RunResult {
    const membership: Membership = {
      parent: new Set(this.profiles.map((p) => p.key)),
      segments: new Map([...this.segments].map(([id, keys]) => [id, new Set(keys)])),
    };
    const definition = definitionKey(this.journey);
    let profiles = this.profiles;
    if (this.seen?.definition === definition) {
      const keys = membershipMovers(this.seen.membership, membership);
      for (const [key, wake] of this.wakes)
        if (wake !== null && wake <= at && membership.parent.has(key)) keys.add(key);
      profiles = this.profiles.filter((p) => keys.has(p.key));
    }
    this.looked = profiles.length;
    const looked = profiles.flatMap((p) => this.states.get(p.key) ?? []);
    const result = this.run(at, profiles);
    if (result.skipped) return result;
    const journey = compileJourney(this.journeyId, this.journey);
    for (const [key, wake] of wakesAfterRun(journey, normalizePauses(this.pauses), at, looked, result.changed)) {
      this.wakes.set(key, wake);
    }
    this.seen = { membership, definition };
    return result;
  }

  /** Takes profiles out of the parent segment (their states stay). */
  removeProfiles(...keys: string[]) {
    this.profiles = this.profiles.filter((p) => !keys.includes(p.key));
  }

  /** Where a profile is, as `stageId/stepId`, `left:<reason>`, or `out`. */
  where(key: string): string {
    const s = this.states.get(key);
    if (!s) return 'out';
    if (s.status === 'left') return `left:${s.leftReason}`;
    return `${s.stageId}/${s.stepId ?? '-'}`;
  }

  positions(keys: ReadonlyArray<string>): Record<string, string> {
    return Object.fromEntries(keys.map((k) => [k, this.where(k)]));
  }

  eventsOf(key: string): string[] {
    return this.events.filter((e) => e.profileKey === key).map((e) => `${e.type}${e.stepId ? `:${e.stepId}` : ''}`);
  }
}
