import { createHash } from 'node:crypto';
import type { AppDeps } from '../platform/context';
import { parseId } from '../platform/ids';
import { ruleContext } from './evaluate';
import { type CompileContext, compileRule } from './rules/compile';
import { readRule } from './rules/parse';
import { builtOf, listSegments, parentSegmentRow } from './store';

/**
 * What the members of a parent segment and of some of its segments are computed from (decision 0046): the
 * build of the profiles (its job, time and definition), the parent segment's current definition (names and
 * types the rules compile against) and the rule of every segment read, those included by a `Segment`
 * condition too. Two equal keys give the same members at any instant, so a journey run can keep the members
 * it evaluated last time instead of evaluating them over the whole parent segment again.
 *
 * Null when that does not hold or cannot be said: a rule with a time filter (its bounds move with the
 * instant, so members change without any input changing), a rule naming a journey's A/B variant (its members
 * change with that journey's runs), a segment or parent segment that is gone, profiles not built yet, or a
 * rule that does not compile (the evaluation then reports why).
 */
export async function membershipInputs(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segmentIds: ReadonlyArray<string>,
  at: Date,
): Promise<string | null> {
  const p = parseId(parentSegmentId);
  const parent = p === null ? null : await parentSegmentRow(deps.storage.db, accountId, p);
  const built = parent ? builtOf(parent) : null;
  if (!parent || !built) return null;
  const rules = new Map<number, string>();
  for (const s of await listSegments(deps.storage.db, accountId, parent.id)) rules.set(s.id, s.rule_json);
  const read = new Map<number, string>();
  for (const raw of segmentIds) {
    const id = parseId(raw);
    const ruleJson = id === null ? undefined : rules.get(id);
    if (id === null || ruleJson === undefined) return null;
    read.set(id, ruleJson);
    const rule = readRule(ruleJson);
    const ctx = await ruleContext(deps, parent, rule, at, built);
    let moving = false;
    const watched: CompileContext = {
      ...ctx,
      get at() {
        moving = true;
        return ctx.at;
      },
      segmentRule: (included) => {
        const found = ctx.segmentRule(included);
        if (found) read.set(included, rules.get(included) ?? JSON.stringify(found));
        return found;
      },
      variantKeys: (ref) => {
        moving = true;
        return ctx.variantKeys(ref);
      },
    };
    try {
      compileRule(rule, watched);
    } catch {
      return null;
    }
    if (moving) return null;
  }
  const key = JSON.stringify({
    parent: parent.id,
    build: [parent.build_job_id, parent.matrix_updated_at, parent.population, parent.built_json],
    definition: parent.definition_json,
    rules: [...read].sort((a, b) => a[0] - b[0]),
  });
  return createHash('sha256').update(key).digest('base64url');
}
