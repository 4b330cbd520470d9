import type { Journey } from '@svc/journey';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import type { Executor } from '../platform/storage';
import { requireJourneyControl } from './access';
import { type Duplicate, duplicateJourney } from './lifecycle';
import { findJourneyRow, getJourneyRow, insertEvent, type JourneyRow } from './store';
import { type VersionOf, type VersionPlan, versionOfText, versionPlan } from './versionPlan';
import { journeyOfRow } from './wire';

/**
 * Versions of a launched journey (docs/decisions/0029-journey-versions.md): a draft copy that, once
 * launched, replaces its source. The source is paused for good (`replaced_by`), and its profiles carry
 * over where the version kept their place (versionPlan.ts). Moving the engine's profile states is the
 * journey engine's: the composition root hands its way over (`Services.versionHandover`), as this feature may
 * not import it.
 */

const REPLACED = 'replaced';

/** What the launch of a version hands to the engine, inside the launch's transaction. */
export interface Handover {
  source: JourneyRow;
  versionId: number;
  version: Journey;
  of: VersionOf;
  plan: VersionPlan;
  at: number;
}

export type VersionHandover = (deps: AppDeps, tx: Executor, handover: Handover) => Promise<void>;

declare module '../platform/context' {
  interface Services {
    /** How the journey engine moves profiles to a launched version (handed over by compose.ts). */
    versionHandover: VersionHandover | null;
  }
}

const VERSION_SUFFIX = ' (new version)';

/**
 * The name a version launches under: the name it was made with, "<source name> (new version)", gives way to the
 * source's name, since once launched it is the journey; a name the user chose stays.
 */
export function launchedVersionName(name: string, sourceName: string): string {
  return name === `${sourceName}${VERSION_SUFFIX}` ? sourceName : name;
}

/** A new draft version of a launched journey, named "<name> (new version)" unless a name is given. */
export async function createVersion(
  deps: AppDeps,
  principal: Principal,
  sourceId: string,
  name: string | undefined,
): Promise<Duplicate> {
  const source = await getJourneyRow(deps.storage.db, principal.accountId, sourceId);
  await requireJourneyControl(deps, principal, source, 'make versions of journeys in this folder');
  if (source.state !== 'launched') {
    throw conflict('This journey is a draft; change it directly. Versions are for launched journeys.');
  }
  if (source.replaced_by !== null) {
    throw conflict(`This journey was replaced by journey ${source.replaced_by}; make the new version from that one.`);
  }
  const made = await duplicateJourney(deps, principal, {
    id: source.id,
    type: 'journey',
    attributes: { name: name?.trim() || `${source.name}${VERSION_SUFFIX}` },
  });
  const before = journeyOfRow(source);
  const after = journeyOfRow(made.row);
  const of: VersionOf = { journeyId: String(source.id), stages: {}, activations: {} };
  // The copy has the source's stages in the same order and its step ids.
  after.journeyStages.forEach((stage, i) => {
    const old = before.journeyStages[i]?.id;
    if (stage.id !== undefined && old !== undefined) of.stages[stage.id] = old;
    for (const [stepId, step] of Object.entries(stage.steps ?? {})) {
      const was = before.journeyStages[i]?.steps?.[stepId];
      if (step.type !== 'Activation' || was?.type !== 'Activation') continue;
      if (was.journeyActivationStepId && step.journeyActivationStepId) {
        of.activations[was.journeyActivationStepId] = step.journeyActivationStepId;
      }
    }
  });
  await deps.storage.db
    .updateTable('journeys')
    .set({ version_of: JSON.stringify(of) })
    .where('account_id', '=', source.account_id)
    .where('id', '=', made.row.id)
    .execute();
  return { ...made, row: await getJourneyRow(deps.storage.db, principal.accountId, made.row.id) };
}

/**
 * The journey a draft version replaces when launched, or null for a plain draft (or when the source was
 * deleted since: the version then launches as a journey of its own). 409 when another version already
 * replaced it.
 */
export async function versionSourceFor(
  deps: AppDeps,
  row: JourneyRow,
): Promise<{ source: JourneyRow; of: VersionOf } | null> {
  const of = versionOfText(row.version_of);
  if (!of) return null;
  const source = await findJourneyRow(deps.storage.db, row.account_id, of.journeyId);
  if (source?.state !== 'launched') return null;
  if (source.replaced_by !== null) {
    throw conflict(
      `Journey ${source.id} was already replaced by journey ${source.replaced_by}; this version cannot replace it too. Make a new version from journey ${source.replaced_by}.`,
    );
  }
  return { source, of };
}

/** Inside the launch's transaction: profiles carried over, then the source paused for good. */
export async function launchVersion(
  deps: AppDeps,
  tx: Executor,
  v: { source: JourneyRow; of: VersionOf; version: Journey; versionId: number; at: number; userId: number },
): Promise<void> {
  const handover = deps.services?.versionHandover;
  if (!handover) throw new Error('The journey engine has not been handed over how versions take over profiles.');
  const plan = versionPlan(journeyOfRow(v.source), v.version, v.of);
  await handover(deps, tx, { source: v.source, versionId: v.versionId, version: v.version, of: v.of, plan, at: v.at });
  await tx
    .updateTable('journeys')
    .set((eb) => ({
      paused: 1,
      paused_at: eb.fn.coalesce('paused_at', eb.val(v.at)),
      replaced_by: v.versionId,
      updated_at: v.at,
    }))
    .where('account_id', '=', v.source.account_id)
    .where('id', '=', v.source.id)
    .execute();
  await insertEvent(tx, {
    accountId: v.source.account_id,
    journeyId: v.source.id,
    kind: REPLACED,
    at: v.at,
    userId: v.userId,
  });
}

/** The plan for launching a draft version now, for previews (null for a plain draft). */
export async function pendingVersionPlan(deps: AppDeps, row: JourneyRow) {
  if (row.state !== 'draft') return null;
  const found = await versionSourceFor(deps, row).catch(() => null);
  if (!found) return null;
  return {
    source: found.source,
    of: found.of,
    plan: versionPlan(journeyOfRow(found.source), journeyOfRow(row), found.of),
  };
}
