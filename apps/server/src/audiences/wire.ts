import type { FolderEntry, ParentSegment, Segment } from '@svc/contracts';
import { folderRef } from '../folders';
import { isoTime } from '../platform/time';
import { attributeColumn, behaviorColumnName, behaviorTable } from './matrix';
import { readRule } from './rules/parse';
import { definitionOf, type ParentSegmentRow, type SegmentRow } from './store';

/** Rows as the wire shows them (packages/contracts/src/audiences.ts). */

const iso = (ms: number | null) => (ms === null ? null : isoTime(new Date(ms)));
const user = (id: number | null, name: string | null) => (id === null ? null : { id: String(id), name: name ?? '' });
/** When and by whom a parent segment or segment was created and last changed. */
const stamps = (row: ParentSegmentRow | SegmentRow) => ({
  createdAt: isoTime(new Date(row.created_at)),
  updatedAt: isoTime(new Date(row.updated_at)),
  createdBy: user(row.created_by, row.created_by_name),
  updatedBy: user(row.updated_by, row.updated_by_name),
});
const BUILD_STATUSES = new Set(['queued', 'running', 'success', 'error', 'killed']);

export function toWireParentSegment(row: ParentSegmentRow): ParentSegment {
  const def = definitionOf(row);
  const audienceId = String(row.id);
  return {
    id: audienceId,
    name: row.name,
    description: row.description,
    scheduleType: row.schedule_type,
    scheduleOption: row.schedule_option,
    timezone: row.timezone,
    ...stamps(row),
    matrixUpdatedAt: iso(row.matrix_updated_at),
    workflowHiveOnly: false,
    hiveEngineVersion: 'stable',
    hivePoolName: null,
    prestoPoolName: null,
    population: row.population,
    rootFolderId: String(row.root_folder_id),
    master: { parentDatabaseName: def.master.database, parentTableName: def.master.table, parentKey: def.master.key },
    attributes: def.attributes.map((a) => ({
      audienceId,
      id: String(a.id),
      name: a.name,
      type: a.type,
      parentDatabaseName: a.database,
      parentTableName: a.table,
      parentColumn: a.column,
      parentKey: a.parentKey,
      foreignKey: a.foreignKey,
      matrixColumnName: attributeColumn(a),
    })),
    behaviors: def.behaviors.map((b) => ({
      audienceId,
      id: String(b.id),
      name: b.name,
      parentDatabaseName: b.database,
      parentTableName: b.table,
      parentKey: b.parentKey,
      foreignKey: b.foreignKey,
      matrixDatabaseName: `audience_${row.id}`,
      matrixTableName: behaviorTable(b),
      allColumns: b.allColumns,
      scheduleType: b.scheduleType,
      scheduleOption: b.scheduleOption,
      schema: b.columns.map((c) => ({
        name: c.name,
        type: c.type,
        parentColumn: c.column,
        matrixColumnName: behaviorColumnName(c),
      })),
    })),
    buildJobId: row.build_job_id === null ? null : String(row.build_job_id),
    buildStatus:
      row.build_status && BUILD_STATUSES.has(row.build_status)
        ? (row.build_status as ParentSegment['buildStatus'])
        : null,
  };
}

export function toWireSegment(row: SegmentRow): Segment {
  return {
    id: String(row.id),
    audienceId: String(row.parent_segment_id),
    name: row.name,
    description: row.description,
    folderId: String(row.folder_id),
    rule: readRule(row.rule_json),
    ...stamps(row),
  };
}

/** A segment as an entry of the by-folder listing. */
export function segmentEntry(row: SegmentRow): FolderEntry {
  return {
    id: String(row.id),
    type: 'segment',
    attributes: {
      name: row.name,
      description: row.description,
      audienceId: String(row.parent_segment_id),
      createdAt: isoTime(new Date(row.created_at)),
      updatedAt: isoTime(new Date(row.updated_at)),
    },
    relationships: { parentFolder: folderRef(row.folder_id) },
  };
}
