import type { SegmentRule } from '@svc/contracts';
import type Database from 'better-sqlite3';
import type { AppDeps } from '../platform/context';
import { conflict } from '../platform/errors';
import { attributeColumn, openProfiles } from './matrix';
import { type Compiled, compileRule } from './rules/compile';
import { builtOf, definitionOf, type ParentSegmentRow, segmentRow } from './store';
import { variantMembersFor } from './variantMembers';

/** Runs compiled rules against a parent segment's built profile file. */

const NOT_BUILT =
  'The profiles of this parent segment are not built yet: run POST /audiences/:id/run and wait for its job.';

function compileFor(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date): Compiled {
  const built = builtOf(parent);
  if (!built) throw conflict(NOT_BUILT);
  return compileRule(rule, {
    def: definitionOf(parent),
    built,
    at,
    segmentRule: (id) => {
      const s = segmentRow(deps.db, parent.account_id, parent.id, id);
      return s ? (JSON.parse(s.rule_json) as SegmentRule) : null;
    },
    variantKeys: variantMembersFor(deps, parent.account_id, parent.id),
  });
}

function withProfiles<T>(deps: AppDeps, parent: ParentSegmentRow, f: (db: Database.Database) => T): T {
  const db = builtOf(parent) ? openProfiles(deps, parent.account_id, parent.id) : null;
  if (!db) throw conflict(NOT_BUILT);
  try {
    return f(db);
  } finally {
    db.close();
  }
}

/** Profiles matching the rule at `at`. */
export function countProfiles(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date): number {
  const { sql, params } = compileFor(deps, parent, rule, at);
  return withProfiles(deps, parent, (db) => {
    const row = db.prepare(`SELECT COUNT(*) AS n FROM profiles p WHERE ${sql}`).get(...params) as { n: number };
    return row.n;
  });
}

/** Keys of the profiles matching the rule at `at`, in key order. */
export function matchingKeys(deps: AppDeps, parent: ParentSegmentRow, rule: SegmentRule, at: Date): string[] {
  const { sql, params } = compileFor(deps, parent, rule, at);
  return withProfiles(
    deps,
    parent,
    (db) =>
      db
        .prepare(`SELECT p.key FROM profiles p WHERE ${sql} ORDER BY p.key`)
        .pluck()
        .all(...params) as string[],
  );
}

export interface ProfileView {
  key: string;
  attributes: Record<string, unknown>;
}

/** Attribute columns present in the built file, by current attribute name. */
function attributeSelect(parent: ParentSegmentRow): { names: string[]; sql: string } {
  const built = builtOf(parent);
  const present = definitionOf(parent).attributes.filter((a) => built?.attributes.some((b) => b.id === a.id));
  return {
    names: present.map((a) => a.name),
    sql: present.map((a) => `, p."${attributeColumn(a)}"`).join(''),
  };
}

function view(names: string[], row: unknown[]): ProfileView {
  const [key, ...values] = row;
  const attributes: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const v = values[i];
    attributes[name] = typeof v === 'bigint' ? Number(v) : Buffer.isBuffer(v) ? v.toString('base64') : v;
  });
  return { key: String(key), attributes };
}

/** Up to `limit` matching profiles with their attributes, in key order. */
export function sampleProfiles(
  deps: AppDeps,
  parent: ParentSegmentRow,
  rule: SegmentRule,
  at: Date,
  limit: number,
): ProfileView[] {
  const { sql, params } = compileFor(deps, parent, rule, at);
  const select = attributeSelect(parent);
  return withProfiles(deps, parent, (db) =>
    (
      db
        .prepare(`SELECT p.key${select.sql} FROM profiles p WHERE ${sql} ORDER BY p.key LIMIT ?`)
        .raw()
        .all(...params, limit) as unknown[][]
    ).map((r) => view(select.names, r)),
  );
}

/** The attributes of the given profiles (keys not in the profile set are left out). */
export function readProfiles(deps: AppDeps, parent: ParentSegmentRow, keys: string[]): ProfileView[] {
  const select = attributeSelect(parent);
  return withProfiles(deps, parent, (db) =>
    (
      db
        .prepare(
          `SELECT p.key${select.sql} FROM profiles p WHERE p.key IN (SELECT value FROM json_each(?)) ORDER BY p.key`,
        )
        .raw()
        .all(JSON.stringify(keys)) as unknown[][]
    ).map((r) => view(select.names, r)),
  );
}
