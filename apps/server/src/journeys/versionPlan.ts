import { type Journey, mapActivationIds, type Step } from '@svc/journey';
import { z } from 'zod';
import { parseStored } from '../platform/storedJson';

/**
 * Where a profile of a launched journey stands in a new version of it (docs/decisions/0029-journey-versions.md).
 * A profile keeps its place when the version kept its stage and, when it is at a step, that step: the same
 * step id of the same kind with the same settings. Names, descriptions and where a step leads (`next`, of
 * the step, its paths and its variants) may change: a profile waiting at a step that now leads elsewhere
 * goes the new way. Every other profile in the journey leaves it when the version is launched.
 */

/** What a version draft records of its source (the `version_of` column). */
const versionOf = z.object({
  journeyId: z.string(),
  /** Old stage id by new stage id. */
  stages: z.record(z.string(), z.string()),
  /** New activation id by old activation id. */
  activations: z.record(z.string(), z.string()),
});
export type VersionOf = z.infer<typeof versionOf>;

export function versionOfText(text: string | null): VersionOf | null {
  return text ? parseStored(versionOf, text, 'journeys.version_of') : null;
}

export interface VersionPlan {
  /** The version's stage for a stage of the source, or null when the version dropped it. */
  stageFor(oldStageId: string): string | null;
  /** Whether a profile at this step (null: past the end of its path) of this source stage keeps its place. */
  keeps(oldStageId: string, stepId: string | null): boolean;
}

/** A step's settings without what may change freely: names, descriptions and links. */
function settingsOf(step: Step): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      if (key === 'next' || key === 'name' || key === 'description') continue;
      out[key] = strip((value as Record<string, unknown>)[key]);
    }
    return out;
  };
  return JSON.stringify(strip(step));
}

export function versionPlan(source: Journey, version: Journey, of: VersionOf): VersionPlan {
  // The source's activation ids read as the version's, so a step naming the copied activation is unchanged.
  const mapped = mapActivationIds(source, (id) => of.activations[id]);
  const newByOld = new Map(Object.entries(of.stages).map(([neu, old]) => [old, neu]));
  const stages = new Map(version.journeyStages.map((s) => [s.id, s]));
  const stageFor = (oldStageId: string) => {
    const id = newByOld.get(oldStageId);
    return id !== undefined && stages.has(id) ? id : null;
  };
  const oldStages = new Map(mapped.journeyStages.map((s) => [s.id, s]));
  return {
    stageFor,
    keeps(oldStageId, stepId) {
      const id = stageFor(oldStageId);
      if (id === null) return false;
      if (stepId === null) return true;
      const before = oldStages.get(oldStageId)?.steps?.[stepId];
      const after = stages.get(id)?.steps?.[stepId];
      return before !== undefined && after !== undefined && settingsOf(before) === settingsOf(after);
    },
  };
}
