import type { Journey, Step } from '@svc/journey';
import { branchLabel, stepKinds, variantLabel } from '@svc/journey';
import { compileJourney, normalizePauses, type PauseInterval, waitDueAt } from '@svc/journey-engine';
import { badRequest } from '../platform/errors';
import { type Executor, many, sql } from '../platform/storage';
import { cursorOf, cursorValue } from './cursor';
import { readChoices, type StateRow } from './store';

export const MAX_PER_PAGE = 1000;

export interface CustomersQuery {
  stage?: string | undefined;
  step?: string | undefined;
  status: 'active' | 'left' | 'all';
  page: number;
  perPage: number;
  /** Keyset paging: only profiles whose key sorts after this one (from the `after` cursor). */
  after?: string | undefined;
}

/**
 * The profile key an `after` cursor (meta.next of a page) carries. A cursor this list did not give, or one
 * sent with a page number, is a 400 saying what to send instead.
 */
export function cursorKey(cursor: string, page: string | undefined): string {
  if (page !== undefined && page !== '' && page !== '1') {
    throw badRequest('Give "after" (the cursor of the page before) or "page", not both.');
  }
  return cursorValue('after', cursor);
}

type Row = Omit<StateRow, 'last_run_at'>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function stepLabel(step: Step | undefined): string | null {
  if (!step) return null;
  const name = 'name' in step && step.name ? step.name : '';
  return name || stepKinds[step.type].label;
}

/** Checks the stage and step filters against the journey, so a typo gets a 400 instead of an empty page. */
function checkFilters(journey: Journey, journeyId: string, q: CustomersQuery) {
  const compiled = compileJourney(journeyId, journey);
  const stages = compiled.stages.map((s) => `${s.id} ("${s.name}")`).join(', ');
  if (q.stage !== undefined && !compiled.stageById.has(q.stage)) {
    throw badRequest(`Stage "${q.stage}" is not in this journey; its stages are ${stages || 'none'}.`);
  }
  if (q.step !== undefined) {
    const inStages = q.stage === undefined ? compiled.stages : [compiled.stageById.get(q.stage)!];
    if (!inStages.some((s) => Object.hasOwn(s.steps, q.step as string))) {
      const where = q.stage === undefined ? 'this journey' : `stage ${q.stage}`;
      throw badRequest(`Step "${q.step}" is not in ${where}; pick a step id from the journey's stages.`);
    }
  }
  return compiled;
}

/** How many profiles the list's filters match, from the journey's position counts (migration 45). */
async function positionTotal(ex: Executor, accountId: number, journeyId: number, q: CustomersQuery) {
  let query = ex
    .selectFrom('journey_positions')
    .select((e) => e.fn.sum<number | string | null>('profiles').as('total'))
    .where('journey_id', '=', journeyId)
    .where('account_id', '=', accountId);
  if (q.status !== 'all') query = query.where('status', '=', q.status);
  if (q.stage !== undefined) query = query.where('stage_id', '=', q.stage);
  if (q.step !== undefined) query = query.where('step_id', '=', q.step);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * A page of the profiles in the journey (by default those still in it) with their stage, step, times,
 * branches and variants, in profile key order.
 */
export async function listCustomers(
  ex: Executor,
  accountId: number,
  journeyId: number,
  journey: Journey,
  pauses: PauseInterval[],
  q: CustomersQuery,
) {
  const compiled = checkFilters(journey, String(journeyId), q);
  const where = [sql`account_id = ${accountId}`, sql`journey_id = ${journeyId}`];
  if (q.status !== 'all') where.push(sql`status = ${q.status}`);
  if (q.stage !== undefined) where.push(sql`stage_id = ${q.stage}`);
  if (q.step !== undefined) where.push(sql`step_id = ${q.step}`);
  const clause = sql.join(where, sql` AND `);
  const total = await positionTotal(ex, accountId, journeyId, q);
  // One row more than the page says whether a next page exists.
  const found = await many<Row>(
    ex,
    q.after === undefined
      ? sql`SELECT * FROM journey_profile_states WHERE ${clause} ORDER BY profile_key
            LIMIT ${q.perPage + 1} OFFSET ${(q.page - 1) * q.perPage}`
      : sql`SELECT * FROM journey_profile_states WHERE ${clause} AND profile_key > ${q.after} ORDER BY profile_key
            LIMIT ${q.perPage + 1}`,
  );
  const rows = found.slice(0, q.perPage);
  const last = rows[rows.length - 1];
  const next = found.length > q.perPage && last ? cursorOf(last.profile_key) : null;
  const known = normalizePauses(pauses);
  const data = rows.map((r) => {
    const stage = compiled.stageById.get(r.stage_id);
    const step = r.step_id === null ? undefined : stage?.steps[r.step_id];
    const waitingUntil = r.status === 'active' && step ? (waitDueAt(known, step, r.step_entered_at) ?? null) : null;
    const branches = Object.entries(readChoices(r.branches, 'branches')).map(([stepId, branchId]) => {
      const point = stage?.steps[stepId];
      const index = point?.type === 'DecisionPoint' ? point.branches.findIndex((b) => b.id === branchId) : -1;
      const branch = point?.type === 'DecisionPoint' ? point.branches[index] : undefined;
      return { stepId, branchId, name: branch ? branchLabel(branch, index) : null };
    });
    const variants = Object.entries(readChoices(r.variants, 'variants')).map(([stepId, variantId]) => {
      const test = compiled.stages.map((s) => s.steps[stepId]).find((s) => s?.type === 'ABTest');
      const index = test?.type === 'ABTest' ? test.variants.findIndex((v) => v.id === variantId) : -1;
      const variant = test?.type === 'ABTest' ? test.variants[index] : undefined;
      return { stepId, variantId, name: variant ? variantLabel(variant, index) : null, control: index === 0 };
    });
    return {
      profileKey: r.profile_key,
      status: r.status,
      stageId: r.stage_id,
      stageName: stage?.name ?? null,
      stepId: r.step_id,
      stepType: step?.type ?? null,
      stepName: stepLabel(step),
      held: r.held === 1,
      journeyEnteredAt: iso(r.journey_entered_at) as string,
      stageEnteredAt: iso(r.stage_entered_at) as string,
      stepEnteredAt: iso(r.step_entered_at) as string,
      waitingUntil: waitingUntil !== null && Number.isFinite(waitingUntil) ? iso(waitingUntil) : null,
      entries: r.entries,
      leftAt: iso(r.left_at),
      leftReason: r.left_reason,
      branches,
      variants,
    };
  });
  return { data, meta: { total, page: q.page, perPage: q.perPage, next } };
}
