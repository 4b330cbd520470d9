import type { JourneyVariantRef, SegmentRule } from '@svc/contracts';
import { Kysely, SqliteDialect } from 'kysely';
import { derivedFile } from '../data';
import type { AppDeps } from '../platform/context';
import { openSqlite } from '../platform/db';
import { conflict, notFound } from '../platform/errors';
import { type RawBuilder, sql } from '../platform/storage';
import type { ProfileView } from './evaluate';
import type { ParentSegmentInfo, SegmentInfo } from './lookup';
import { attributeColumn, profileSet } from './matrix';
import { compileRule } from './rules/compile';
import { parseRule } from './rules/parse';
import { builtOf, definitionOf, type ParentSegmentRow, parseId, type SegmentRow } from './store';
import { variantProviderOf } from './variantMembers';

/**
 * TRANSITIONAL (issue 16): synchronous, SQLite-only copies of lookup.ts for the journeys and journey engine
 * code that still calls audiences synchronously on `deps.db`. They are converted to the storage layer at the
 * same time as audiences was; once they await lookup.ts (through index.ts), delete this file. On PostgreSQL
 * `deps.db` throws, naming the code to move.
 */

function parentRow(deps: AppDeps, accountId: number, raw: string | number): ParentSegmentRow | null {
  const id = parseId(raw);
  if (id === null) return null;
  const row = deps.db.prepare('SELECT * FROM parent_segments WHERE account_id = ? AND id = ?').get(accountId, id);
  return (row as ParentSegmentRow | undefined) ?? null;
}

function segmentRuleRow(deps: AppDeps, accountId: number, parentId: number, raw: string | number) {
  const id = parseId(raw);
  if (id === null) return null;
  const row = deps.db
    .prepare('SELECT * FROM segments WHERE account_id = ? AND parent_segment_id = ? AND id = ?')
    .get(accountId, parentId, id);
  return (row as SegmentRow | undefined) ?? null;
}

export function findParentSegment(deps: AppDeps, accountId: number, id: string | number): ParentSegmentInfo | null {
  const row = parentRow(deps, accountId, id);
  if (!row) return null;
  const def = definitionOf(row);
  const columns = def.attributes.map((a) => ({ name: a.name, type: a.type }));
  if (!columns.some((c) => c.name === def.master.key)) columns.unshift({ name: def.master.key, type: 'string' });
  return { id: String(row.id), name: row.name, rootFolderId: String(row.root_folder_id), key: def.master.key, columns };
}

export function findSegment(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segmentId: string | number,
): SegmentInfo | null {
  const p = parseId(parentSegmentId);
  const row = p === null ? null : segmentRuleRow(deps, accountId, p, segmentId);
  if (!row) return null;
  return { id: String(row.id), parentSegmentId: String(p), name: row.name, folderId: String(row.folder_id) };
}

export function missingSegments(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segmentIds: (string | number)[],
): string[] {
  return segmentIds.filter((id) => findSegment(deps, accountId, parentSegmentId, id) === null).map((id) => String(id));
}

const NOT_BUILT =
  'The profiles of this parent segment are not built yet: run POST /audiences/:id/run and wait for its job.';

/** Runs a query on the built profile file, read-only; 409 before the first build. */
function onProfiles<T>(deps: AppDeps, parent: ParentSegmentRow, query: RawBuilder<unknown>): T[] {
  let db: ReturnType<typeof openSqlite>;
  try {
    db = openSqlite(derivedFile(deps.config.dataDir, profileSet(parent)), { readonly: true });
  } catch {
    throw conflict(NOT_BUILT);
  }
  try {
    const compiled = query.compile(new Kysely<unknown>({ dialect: new SqliteDialect({ database: db }) }));
    return db.prepare(compiled.sql).all(...compiled.parameters) as T[];
  } finally {
    db.close();
  }
}

export function segmentProfileKeys(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  segment: string | number | SegmentRule,
  at: Date,
): string[] {
  const parent = parentRow(deps, accountId, parentSegmentId);
  if (!parent) throw notFound('parent segment');
  let rule: SegmentRule;
  if (typeof segment === 'object') rule = parseRule(segment);
  else {
    const row = segmentRuleRow(deps, accountId, parent.id, segment);
    if (!row) throw notFound('segment');
    rule = JSON.parse(row.rule_json) as SegmentRule;
  }
  const built = builtOf(parent);
  if (!built) throw conflict(NOT_BUILT);
  const provider = variantProviderOf(deps);
  const where = compileRule(rule, {
    def: definitionOf(parent),
    built,
    at,
    dialect: deps.storage.dialect,
    segmentRule: (id) => {
      const row = segmentRuleRow(deps, accountId, parent.id, id);
      return row ? (JSON.parse(row.rule_json) as SegmentRule) : null;
    },
    variantKeys: (ref: JourneyVariantRef) => {
      const keys = provider ? provider(accountId, parent.id, ref) : [];
      if (!Array.isArray(keys)) throw new Error('Variant members are asynchronous now: call lookup.ts.');
      return keys;
    },
  });
  const rows = onProfiles<{ key: string }>(
    deps,
    parent,
    sql`SELECT p.key FROM profiles p WHERE ${where} ORDER BY p.key`,
  );
  return rows.map((r) => r.key);
}

export function profileRows(
  deps: AppDeps,
  accountId: number,
  parentSegmentId: string | number,
  keys: string[],
): ProfileView[] {
  const parent = parentRow(deps, accountId, parentSegmentId);
  if (!parent) throw notFound('parent segment');
  const built = builtOf(parent);
  if (!built) throw conflict(NOT_BUILT);
  const present = definitionOf(parent).attributes.filter((a) => built.attributes.some((b) => b.id === a.id));
  const columns = sql.raw(present.map((a, i) => `, p."${attributeColumn(a)}" AS v${i}`).join(''));
  const list = deps.storage.dialect.listValues(keys, 'text');
  const rows = onProfiles<Record<string, unknown>>(
    deps,
    parent,
    sql`SELECT p.key${columns} FROM profiles p WHERE p.key IN (${list}) ORDER BY p.key`,
  );
  return rows.map((row) => {
    const attributes: Record<string, unknown> = {};
    present.forEach((a, i) => {
      const v = row[`v${i}`];
      attributes[a.name] = Buffer.isBuffer(v) ? v.toString('base64') : v;
    });
    return { key: String(row.key), attributes };
  });
}
