import type { JourneyVariantRef, RuleCondition, SegmentRule } from '@svc/contracts';
import { derivedSets } from '../data';
import type { AppDeps } from '../platform/context';
import { badRequest, conflict } from '../platform/errors';
import { type DataExecutor, isInvalidRegexp, many, one, type RawBuilder, sql } from '../platform/storage';
import type { Definition } from './definition';
import { attributeColumn, profileSet } from './matrix';
import { type CompileContext, compileRule } from './rules/compile';
import { readRule } from './rules/parse';
import { builtOf, definitionOf, listSegments, type ParentSegmentRow } from './store';
import { variantMembersFor } from './variantMembers';

/** Runs compiled rules against a parent segment's built profiles (matrix.ts), on either backend. */

const NOT_BUILT =
  'The profiles of this parent segment are not built yet: run POST /audiences/:id/run and wait for its job.';

/** Rule 7 conditions (journey variants) of a rule, including those of the segments it includes. */
function variantRefs(rule: SegmentRule, segments: Map<number, SegmentRule>): JourneyVariantRef[] {
  const refs = new Map<string, JourneyVariantRef>();
  const seen = new Set<number>();
  const walk = (c: RuleCondition) => {
    if (c.type === 'And' || c.type === 'Or') c.conditions.forEach(walk);
    else if (c.type === 'Value' && !('name' in c.leftValue)) refs.set(JSON.stringify(c.leftValue), c.leftValue);
    else if (c.type === 'Segment') {
      const id = Number(c.segmentId);
      const included = segments.get(id);
      if (included && !seen.has(id)) {
        seen.add(id);
        walk(included);
      }
    }
  };
  walk(rule);
  return [...refs.values()];
}

/**
 * What compiling `rule` needs, read beforehand (the compiler itself is synchronous): the rules of the
 * parent's segments and the members of the journey variants the conditions name. A variant's error (an
 * unknown journey) is kept and thrown where the compiler reaches it, so errors come in the rule's order.
 */
export async function ruleContext(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
  built: Definition,
  self: number | null = null,
): Promise<CompileContext> {
  const segments = new Map<number, SegmentRule>();
  for (const s of await listSegments(deps.storage.db, parent.account_id, parent.id)) {
    segments.set(s.id, s.id === self ? rule : readRule(s.rule_json));
  }
  if (self !== null) segments.set(self, rule);
  const members = variantMembersFor(deps, parent.account_id, parent.id);
  const variants = new Map<string, { keys: string[] } | { error: unknown }>();
  for (const ref of variantRefs(rule, segments)) {
    try {
      variants.set(JSON.stringify(ref), { keys: await members(ref) });
    } catch (error) {
      variants.set(JSON.stringify(ref), { error });
    }
  }
  return {
    def: definitionOf(parent),
    built,
    at,
    dialect: derivedSets(deps).dialect,
    segmentRule: (id) => segments.get(id) ?? null,
    variantKeys: (ref) => {
      const found = variants.get(JSON.stringify(ref));
      if (!found) throw badRequest('The journey variant condition could not be resolved.');
      if ('error' in found) throw found.error;
      return found.keys;
    },
  };
}

async function compileFor(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date) {
  const built = builtOf(parent);
  if (!built) throw conflict(NOT_BUILT);
  return compileRule(rule, await ruleContext(deps, parent, rule, at, built));
}

/** Runs `fn` on the built profiles; 409 before the first build, 400 for a pattern PostgreSQL refuses. */
async function withProfiles<T>(
  deps: AppDeps,
  parent: ParentSegmentRow,
  fn: (ex: DataExecutor) => Promise<T>,
): Promise<T> {
  if (!builtOf(parent)) throw conflict(NOT_BUILT);
  let found: { value: T } | null;
  try {
    found = await derivedSets(deps).read(profileSet(parent), fn);
  } catch (err) {
    if (isInvalidRegexp(err)) {
      throw badRequest(`A regular expression of the rule cannot run: ${(err as Error).message}. Simplify it.`);
    }
    throw err;
  }
  if (!found) throw conflict(NOT_BUILT);
  return found.value;
}

/** Profiles matching the rule at `at`. */
export async function countProfiles(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
): Promise<number> {
  const where = await compileFor(deps, parent, rule, at);
  return withProfiles(deps, parent, async (ex) => {
    const row = await one<{ n: number }>(ex, sql`SELECT COUNT(*) AS n FROM profiles p WHERE ${where}`);
    return Number(row?.n ?? 0);
  });
}

const keyOrder = (deps: AppDeps) => sql.raw(derivedSets(deps).dialect.binaryOrder('p.key'));

/**
 * What tells the set of profiles matching the rule at `at` from another set (the dialect's `fingerprint`): equal
 * fingerprints, equal sets, without reading a key.
 */
export async function matchingFingerprint(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
): Promise<string> {
  const where = await compileFor(deps, parent, rule, at);
  const fingerprint = sql.raw(derivedSets(deps).dialect.fingerprint('p.key'));
  return withProfiles(deps, parent, async (ex) => {
    const row = await one<{ f: string }>(ex, sql`SELECT ${fingerprint} AS f FROM profiles p WHERE ${where}`);
    return String(row?.f ?? '');
  });
}

/** Keys of the profiles matching the rule at `at`, in key order. */
export async function matchingKeys(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
): Promise<string[]> {
  const where = await compileFor(deps, parent, rule, at);
  return withProfiles(deps, parent, async (ex) =>
    (await many<{ key: string }>(ex, sql`SELECT p.key FROM profiles p WHERE ${where} ORDER BY ${keyOrder(deps)}`)).map(
      (r) => r.key,
    ),
  );
}

export interface ProfileView {
  key: string;
  attributes: Record<string, unknown>;
}

/** Attribute columns present in the built profiles, by current attribute name. */
function attributeSelect(deps: AppDeps, parent: ParentSegmentRow): { names: string[]; sql: RawBuilder<unknown> } {
  const built = builtOf(parent);
  const present = definitionOf(parent).attributes.filter((a) => built?.attributes.some((b) => b.id === a.id));
  const ident = derivedSets(deps).dialect.ident;
  return {
    names: present.map((a) => a.name),
    sql: sql.raw(present.map((a, i) => `, p.${ident(attributeColumn(a))} AS v${i}`).join('')),
  };
}

function view(names: string[], row: Record<string, unknown>): ProfileView {
  const attributes: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const v = row[`v${i}`];
    attributes[name] = typeof v === 'bigint' ? Number(v) : Buffer.isBuffer(v) ? v.toString('base64') : v;
  });
  return { key: String(row.key), attributes };
}

/** Up to `limit` matching profiles and how many match, read from one version of the profiles. */
export async function sampleAndCount(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
  limit: number,
): Promise<{ profiles: ProfileView[]; population: number }> {
  const where = await compileFor(deps, parent, rule, at);
  const select = attributeSelect(deps, parent);
  return withProfiles(deps, parent, async (ex) => {
    const rows = await many<Record<string, unknown>>(
      ex,
      sql`SELECT p.key${select.sql} FROM profiles p WHERE ${where} ORDER BY ${keyOrder(deps)} LIMIT ${limit}`,
    );
    const counted = await one<{ n: number }>(ex, sql`SELECT COUNT(*) AS n FROM profiles p WHERE ${where}`);
    return { profiles: rows.map((r) => view(select.names, r)), population: Number(counted?.n ?? 0) };
  });
}

/** The attributes of the given profiles (keys not in the profile set are left out), in key order. */
export async function readProfiles(deps: AppDeps, parent: ParentSegmentRow, keys: string[]): Promise<ProfileView[]> {
  const select = attributeSelect(deps, parent);
  const list = derivedSets(deps).dialect.listValues(keys, 'text');
  return withProfiles(deps, parent, async (ex) =>
    (
      await many<Record<string, unknown>>(
        ex,
        sql`SELECT p.key${select.sql} FROM profiles p WHERE p.key IN (${list}) ORDER BY ${keyOrder(deps)}`,
      )
    ).map((r) => view(select.names, r)),
  );
}
