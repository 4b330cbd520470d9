import { z } from 'zod';

/**
 * Wire shapes of parent segments (audiences), their segments and folders (`/audiences/*`,
 * `/entities/by-folder/*`, `/entities/folders/*`). Ids are strings; times are ISO 8601 UTC with
 * milliseconds. Requests may send a whole record back (PUT): fields the caller cannot change (ids of the
 * record, times, users, figures, matrix names) are ignored, never stored.
 */

/** Column types of attributes and behavior columns. Only `number` ⇄ `timestamp` can be changed. */
export const audienceColumnType = z.enum(['number', 'string', 'timestamp']);
export type AudienceColumnType = z.infer<typeof audienceColumnType>;

export const userRef = z.object({ id: z.string(), name: z.string() });

/** Master table: profiles are the distinct values of `parentKey` in it. */
export const audienceMaster = z.object({
  parentDatabaseName: z.string(),
  parentTableName: z.string(),
  /** The master table's column that identifies a profile. */
  parentKey: z.string(),
});

/**
 * An attribute: one value per profile. From the master table (`foreignKey` null), or from another table
 * whose `foreignKey` column matches the master's `parentKey` column (the newest row by `time` wins).
 */
export const audienceAttribute = z.object({
  audienceId: z.string(),
  id: z.string(),
  name: z.string(),
  type: audienceColumnType,
  parentDatabaseName: z.string(),
  parentTableName: z.string(),
  parentColumn: z.string(),
  /** A column of the master table (defaults to the master key). */
  parentKey: z.string(),
  /** The column of this attribute's table that joins to `parentKey`; null for master columns. */
  foreignKey: z.string().nullable(),
  matrixColumnName: z.string(),
});
export type AudienceAttribute = z.infer<typeof audienceAttribute>;

export const behaviorColumn = z.object({
  name: z.string(),
  type: audienceColumnType,
  parentColumn: z.string(),
  matrixColumnName: z.string(),
});
export type BehaviorColumn = z.infer<typeof behaviorColumn>;

/** A behavior: the rows of an event table whose `foreignKey` column matches the master's `parentKey`. */
export const audienceBehavior = z.object({
  audienceId: z.string(),
  id: z.string(),
  name: z.string(),
  parentDatabaseName: z.string(),
  parentTableName: z.string(),
  parentKey: z.string(),
  foreignKey: z.string(),
  matrixDatabaseName: z.string(),
  matrixTableName: z.string(),
  /** True: every column of the table, typed by default (no single column's type can change). */
  allColumns: z.boolean(),
  scheduleType: z.string(),
  scheduleOption: z.string().nullable(),
  schema: z.array(behaviorColumn),
});
export type AudienceBehavior = z.infer<typeof audienceBehavior>;

export const buildStatus = z.enum(['queued', 'running', 'success', 'error', 'killed']);

/** The parent segment record (spec "Parent segment (audience)"), plus the state of its last build. */
export const parentSegment = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  scheduleType: z.string(),
  scheduleOption: z.string().nullable(),
  timezone: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: userRef.nullable(),
  updatedBy: userRef.nullable(),
  /** When the profile set was last built; null before the first build ends. */
  matrixUpdatedAt: z.string().nullable(),
  workflowHiveOnly: z.boolean(),
  hiveEngineVersion: z.string(),
  hivePoolName: z.string().nullable(),
  prestoPoolName: z.string().nullable(),
  /** Distinct profiles at the last build (0 before the first). */
  population: z.number().int(),
  rootFolderId: z.string(),
  master: audienceMaster,
  attributes: z.array(audienceAttribute),
  behaviors: z.array(audienceBehavior),
  /** The job of the newest build (a `/v3/job/show/:id` id) and its status. */
  buildJobId: z.string().nullable(),
  buildStatus: buildStatus.nullable(),
});
export type ParentSegment = z.infer<typeof parentSegment>;

export const parentSegmentList = z.array(parentSegment);

const name = z.string().trim().min(1, 'Give a name.').max(256, 'Use at most 256 characters.');

/** An attribute as sent on create or PUT. `id` keeps an existing attribute; without it one is added. */
export const attributeInput = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  name,
  type: audienceColumnType.optional(),
  parentDatabaseName: z.string().optional(),
  parentTableName: z.string().optional(),
  parentColumn: z.string(),
  parentKey: z.string().nullish(),
  foreignKey: z.string().nullish(),
});
export type AttributeInput = z.infer<typeof attributeInput>;

export const behaviorColumnInput = z.object({
  name: z.string().trim().min(1).max(256).optional(),
  parentColumn: z.string(),
  type: audienceColumnType.optional(),
});

export const behaviorInput = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  name,
  parentDatabaseName: z.string(),
  parentTableName: z.string(),
  parentKey: z.string().nullish(),
  foreignKey: z.string(),
  allColumns: z.boolean().default(false),
  scheduleType: z.string().optional(),
  scheduleOption: z.string().nullish(),
  /** The selected columns (ignored when allColumns is true: then every column is taken). */
  schema: z.array(behaviorColumnInput).max(500).default([]),
});
export type BehaviorInput = z.infer<typeof behaviorInput>;

/** POST /audiences and PUT /audiences/:id (the whole edited record; read-only fields are ignored). */
export const parentSegmentInput = z.object({
  name,
  description: z.string().max(4000).nullish(),
  scheduleType: z.string().max(64).optional(),
  scheduleOption: z.string().max(64).nullish(),
  timezone: z.string().max(64).optional(),
  master: audienceMaster,
  attributes: z.array(attributeInput).max(500).default([]),
  behaviors: z.array(behaviorInput).max(100).default([]),
});
export type ParentSegmentInput = z.input<typeof parentSegmentInput>;

// ---- Segment rules (spec, Journeys rule 7: `{type: And|Or, conditions: [...]}`) ----

export const COMPARISON_OPERATORS = ['Equal', 'NotEqual', 'Greater', 'GreaterEqual', 'Less', 'LessEqual'] as const;
export const TEXT_OPERATORS = ['Contain', 'StartWith', 'EndWith', 'Regexp'] as const;
/** Operators on values of any type (Greater… also order strings). */
export const VALUE_OPERATORS = [...COMPARISON_OPERATORS, 'Between', 'In', ...TEXT_OPERATORS, 'IsNull'] as const;
/** Time filters: only on `timestamp` columns (Unix seconds). */
export const TIME_OPERATORS = ['TimeWithinPast', 'TimeWithinNext', 'TimeRange', 'TimeBefore', 'TimeAfter'] as const;
export const OPERATOR_TYPES = [...VALUE_OPERATORS, ...TIME_OPERATORS] as const;
export type OperatorType = (typeof OPERATOR_TYPES)[number];
export const CONDITION_TYPES = ['Value', 'Behavior', 'Segment', 'And', 'Or'] as const;

export const ruleScalar = z.union([z.string().max(1000), z.number(), z.boolean()], {
  error: 'Give a value: text (at most 1000 characters), a number or a boolean.',
});
export const timeUnit = z.enum(['day', 'week', 'month']);
/** An instant: ISO 8601 text (`2026-11-01` or `2026-11-01T10:00:00Z`) or Unix seconds. */
export const timePoint = z.union([z.string().max(64), z.number()], {
  error: 'Give a time: Unix seconds or ISO 8601 text such as 2026-11-01.',
});
const not = z.boolean().optional();

export const ruleOperator = z.union([
  z.object({ type: z.enum(COMPARISON_OPERATORS), rightValue: ruleScalar, not }),
  z.object({ type: z.literal('Between'), minValue: ruleScalar, maxValue: ruleScalar, not }),
  z.object({ type: z.literal('In'), rightValue: z.array(ruleScalar).min(1).max(1000), not }),
  z.object({ type: z.enum(TEXT_OPERATORS), rightValue: z.string().max(1000), not }),
  z.object({ type: z.literal('IsNull'), not }),
  /** Within the past (or next) `value` units of now: now − value … now, or now … now + value. */
  z.object({
    type: z.enum(['TimeWithinPast', 'TimeWithinNext']),
    value: z.number().int().min(0).max(100000),
    unit: timeUnit,
    not,
  }),
  /** Between two instants, both included. */
  z.object({ type: z.literal('TimeRange'), from: timePoint, to: timePoint, not }),
  /** Strictly before or after an instant. */
  z.object({ type: z.enum(['TimeBefore', 'TimeAfter']), rightValue: timePoint, not }),
]);
export type RuleOperator = z.infer<typeof ruleOperator>;

/** A count compared to N (behavior conditions). */
export const countOperator = z.union([
  z.object({ type: z.enum(COMPARISON_OPERATORS), rightValue: z.number().int().min(0) }),
  z.object({ type: z.literal('Between'), minValue: z.number().int().min(0), maxValue: z.number().int().min(0) }),
]);
export type CountOperator = z.infer<typeof countOperator>;

/** An attribute (or, inside a behavior filter, a behavior column) by name. */
export const columnRef = z.object({ name: z.string().min(1).max(256) });
/** How rule 7's `location` names an A/B variant (the journey's own ids, so renaming changes nothing). */
export const VARIANT_LOCATION_RULE =
  '`ab_test_<A/B test step id>_<variant id>`: the step id is the key of the ABTest step in the stage’s `steps`, the variant id its `variants[].id`, e.g. `ab_test_c0ffee00-…-0010_c0ffee00-…-0011`.';

/**
 * The journey A/B variant form of rule 7: the profiles assigned to one variant of an A/B test of a journey
 * of the same parent segment. Used with `{type: IsNull, not: true}` (in the variant; `not` false: not in it).
 */
export const journeyVariantRef = z
  .object({
    journeyId: z.union([z.string(), z.number()]).describe('A journey of the same parent segment'),
    journeyStageId: z.union([z.string(), z.number()]).describe('The id of the stage holding the A/B test'),
    location: z.string().max(600).describe(`The variant: ${VARIANT_LOCATION_RULE}`),
    tense: z.string().describe('`intime`: profiles assigned to the variant (they stay in it once assigned)'),
  })
  .describe(
    'Rule 7: the profiles in an A/B variant. Operator `{type: "IsNull", not: true}` selects them; combine with other conditions and `exclude` like any condition.',
  );
export type JourneyVariantRef = z.infer<typeof journeyVariantRef>;

export const valueCondition = z.object({
  type: z.literal('Value'),
  exclude: z.boolean().optional(),
  leftValue: z.union([columnRef, journeyVariantRef]),
  operator: ruleOperator,
});

export const timeWindow = z.union([
  z.object({ type: z.enum(['TimeWithinPast', 'TimeWithinNext']), value: z.number().int().min(0), unit: timeUnit }),
  z.object({ type: z.literal('TimeRange'), from: timePoint, to: timePoint }),
  z.object({ type: z.enum(['TimeBefore', 'TimeAfter']), rightValue: timePoint }),
]);

export const segmentCondition = z.object({
  type: z.literal('Segment'),
  /** True: profiles in that segment are left out. */
  exclude: z.boolean().optional(),
  segmentId: z.union([z.string(), z.number()]),
});

export interface SegmentRule {
  type: 'And' | 'Or';
  exclude?: boolean | undefined;
  conditions: RuleCondition[];
}
export interface BehaviorCondition {
  type: 'Behavior';
  exclude?: boolean | undefined;
  /** Behavior name. */
  behavior: string;
  /** Conditions on the behavior's columns (Value conditions and groups of them). */
  filter?: SegmentRule | null | undefined;
  /** Rows whose `time` is in this window; all rows when absent. */
  window?: z.infer<typeof timeWindow> | null | undefined;
  count: CountOperator;
}
export type RuleCondition =
  | z.infer<typeof valueCondition>
  | z.infer<typeof segmentCondition>
  | BehaviorCondition
  | SegmentRule;

export const segmentRule: z.ZodType<SegmentRule> = z.lazy(() =>
  z.object({
    type: z.enum(['And', 'Or']),
    exclude: z.boolean().optional(),
    conditions: z.array(ruleCondition).max(200),
  }),
);
export const behaviorCondition: z.ZodType<BehaviorCondition> = z.lazy(() =>
  z.object({
    type: z.literal('Behavior'),
    exclude: z.boolean().optional(),
    behavior: z.string().min(1).max(256),
    filter: segmentRule.nullish(),
    window: timeWindow.nullish(),
    count: countOperator,
  }),
);
export const ruleCondition: z.ZodType<RuleCondition> = z.lazy(() =>
  z.union([valueCondition, segmentCondition, behaviorCondition, segmentRule]),
);

// ---- Segments ----

export const segment = z.object({
  id: z.string(),
  audienceId: z.string(),
  name: z.string(),
  description: z.string(),
  folderId: z.string(),
  rule: segmentRule,
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: userRef.nullable(),
  updatedBy: userRef.nullable(),
});
export type Segment = z.infer<typeof segment>;

export const segmentInput = z.object({
  name,
  description: z.string().max(4000).nullish(),
  /** Defaults to the parent segment's root folder. */
  folderId: z.union([z.string(), z.number()]).nullish(),
  rule: segmentRule,
});
export type SegmentInput = z.input<typeof segmentInput>;

/** POST /audiences/:id/population: counts an unsaved rule (the console's live count). */
export const populationRequest = z.object({ rule: segmentRule });
export const population = z.object({ population: z.number().int(), at: z.string() });

/** One profile: its key and attribute values by attribute name. */
export const profileSample = z.object({
  profiles: z.array(z.object({ key: z.string(), attributes: z.record(z.string(), z.unknown()) })),
  population: z.number().int(),
});

// ---- Folders (JSON:API style entries) ----

export const FOLDER_ENTRY_TYPES = ['folder-segment', 'segment', 'journey'] as const;
export const folderRef = z.object({ id: z.string(), type: z.literal('folder-segment') });

export const folderEntry = z.object({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z.object({ parentFolder: z.object({ data: folderRef }) }).catchall(z.unknown()),
});
export type FolderEntry = z.infer<typeof folderEntry>;

export const folderListing = z.object({ data: z.array(folderEntry) });

export const folderCreate = z.object({
  name,
  parentFolderId: z.union([z.string(), z.number()]),
});
export const folderRename = z.object({ name });

export const folderObject = z.object({
  data: z.object({
    id: z.string(),
    type: z.literal('folder-segment'),
    attributes: z.object({
      name: z.string(),
      audienceId: z.string(),
      parentFolderId: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  }),
});
