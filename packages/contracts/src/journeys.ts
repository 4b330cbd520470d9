import { z } from 'zod';

/**
 * Wire shapes of the journeys API (`/entities/journeys*`, `/entities/folders/:id/permissions`) beyond the
 * journey document itself, whose schema lives in `@svc/journey` (`journeyDocumentSchema`) next to the
 * rules. Answers are camelCase; requests may also use the spec's snake_case (the server renames).
 */

/** Where a rule breach sits, as `@svc/journey` reports it (`text` is a printable property path). */
export const journeyViolationPath = z.object({
  stageIndex: z.number().int().optional(),
  stageId: z.string().optional(),
  stepId: z.string().optional(),
  branchIndex: z.number().int().optional(),
  variantIndex: z.number().int().optional(),
  exitCriterionIndex: z.number().int().optional(),
  field: z.string().optional(),
  text: z.string(),
});

/** One breached rule: a stable `code`, a sentence for a marketer, and where. */
export const journeyViolation = z.object({ code: z.string(), message: z.string(), path: journeyViolationPath });
export type JourneyViolation = z.infer<typeof journeyViolation>;

/** An A/B test whose split the server computed because `customizedSplit` is false. */
export const evenSplitNotice = z.object({
  stageIndex: z.number().int(),
  stageId: z.string().optional(),
  stepId: z.string(),
  percentages: z.array(z.number().int()),
});

/** `meta` of a journey answer. */
export const journeyMeta = z.object({
  /** A/B tests split evenly by the server (percentages as stored, control first). */
  evenSplits: z.array(evenSplitNotice),
  /** What still stops a draft from launching (empty for launched journeys and ready drafts). */
  launchViolations: z.array(journeyViolation),
  /** The step id of the A/B test an A/B creation request added. */
  insertedStepId: z.string().optional(),
  /** A draft made to replace a launched journey: that journey's id (its launch carries profiles over). */
  versionOf: z.string().nullable().optional(),
  /** A journey replaced by a launched version: that version's id (it stays paused). */
  replacedBy: z.string().nullable().optional(),
});
export type JourneyMeta = z.infer<typeof journeyMeta>;

/** A journey in lists (GET /entities/journeys, the by-folder listing): no stages. */
export const journeySummary = z.object({
  id: z.string(),
  type: z.literal('journey'),
  attributes: z.object({
    name: z.string(),
    description: z.string().nullable(),
    audienceId: z.string(),
    state: z.enum(['draft', 'launched']),
    paused: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    launchedAt: z.string().nullable(),
    pausedAt: z.string().nullable(),
    /** The name of the user who created the journey; null once that user is removed. */
    createdByName: z.string().nullable(),
  }),
  relationships: z.object({
    parentFolder: z.object({ data: z.object({ id: z.string(), type: z.literal('folder-segment') }) }),
  }),
});
export type JourneySummary = z.infer<typeof journeySummary>;
export const journeySummaryList = z.object({ data: z.array(journeySummary) });

/** Extra members of an A/B creation body (POST /entities/journeys/:id), beside the ABTest step itself. */
/** How the place of a new A/B test is settled; the spec's body has none of these fields (see below). */
export const AB_PLACEMENT_RULE =
  'All optional. Without any of them (the spec’s rule 4 body) the test goes to the one place the journey leaves open: after the last step of the only open path (a `next` that is null), the preceding step then pointing to it with `next`; or, when the only stage is empty, as its root step. A variant whose `next` names a step the journey does not have yet ends its path in a new End step of that id, as in the spec’s example. When there are several such places, or none (every path ends in an End step), the answer is 400 `ab.placement_ambiguous` / `ab.placement_missing`, naming the places and the field that settles it: `precedingStepId` (with `precedingPathId` on a split) or `stageId`.';

export const abTestPlacement = z.object({
  /** The step the test goes after; that step's `next` (or the chosen path) then points to the test. */
  precedingStepId: z
    .string()
    .min(1)
    .optional()
    .describe('The step the test follows; its `next` (or the chosen path) then points to the test'),
  /** When the preceding step splits: the id of its decision path or A/B variant the test goes on. */
  precedingPathId: z
    .string()
    .min(1)
    .optional()
    .describe('When precedingStepId is a decision point or A/B test: the id of its path or variant'),
  /** Without a preceding step: the stage (id or 0-based index) whose start the test becomes. */
  stageId: z
    .string()
    .min(1)
    .optional()
    .describe('Without precedingStepId: the stage whose first step the test becomes'),
  stageIndex: z.number().int().min(0).optional().describe('Like stageId, by 0-based position'),
  /** The new step's UUID; generated when absent. */
  stepId: z.string().min(1).optional().describe('The new step’s id; a UUID is generated when absent'),
});
export type AbTestPlacement = z.infer<typeof abTestPlacement>;

/** POST /entities/journeys/duplicate. */
export const journeyDuplicateRequest = z.object({
  id: z.union([z.string().min(1), z.number().int()]),
  type: z.string().optional(),
  attributes: z.object({ name: z.string().optional() }).optional(),
  relationships: z
    .object({
      parentFolder: z
        .object({
          data: z.object({ id: z.union([z.string().min(1), z.number().int()]), type: z.string().optional() }),
        })
        .optional(),
    })
    .optional(),
});

/** Answer of DELETE /entities/journeys/:id and of an activation delete. */
export const deletedResource = z.object({
  data: z.object({ id: z.string(), type: z.string() }),
  meta: z.object({ deleted: z.literal(true) }),
});

// Activations (journeyActivationStep, the "syndications" routes)

/** Schedule types an activation accepts; the spec shows only `hourly`. */
export const ACTIVATION_SCHEDULE_TYPES = ['none', 'hourly', 'daily'] as const;
export const activationScheduleType = z.enum(ACTIVATION_SCHEDULE_TYPES);
/** `scheduleOption`: a time of day, 24-hour `HH:MM`. */
export const SCHEDULE_OPTION = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Webhook methods an activation may use (its connectorConfig.method). */
export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
/**
 * A webhook header in connectorConfig.headers. Sent: {name, value}; a header without value keeps its
 * stored value. Answered: value null, with `masked` (at most the last four characters) and `set: true`.
 */
export interface WebhookHeader {
  name: string;
  value?: string | null;
  masked?: string;
  set?: boolean;
}

/** `syndication_params` in its one camelCase form (what is stored and answered). */
export const syndicationParams = z.object({
  name: z.string(),
  description: z.string().nullable(),
  scheduleType: activationScheduleType,
  scheduleOption: z.string().nullable(),
  timezone: z.string(),
  connectorConfig: z.record(z.string(), z.unknown()),
  connectionId: z.string(),
  columns: z.array(z.string()),
  allColumns: z.boolean(),
  emailRecipients: z.array(z.string()),
  notifyOn: z.array(z.string()),
});
export type SyndicationParams = z.infer<typeof syndicationParams>;

const userRef = z.object({ data: z.object({ id: z.string(), type: z.literal('user') }).nullable() });

export const activationResource = z.object({
  id: z.string(),
  type: z.literal('journeyActivationStep'),
  attributes: z.object({
    /** The spec's key; the settings inside are camelCase as in its example. */
    syndication_params: syndicationParams,
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  relationships: z.object({
    journey: z.object({ data: z.object({ id: z.string(), type: z.literal('journey') }) }),
    createdBy: userRef,
    updatedBy: userRef,
  }),
});
export type ActivationResource = z.infer<typeof activationResource>;
export const activationDocument = z.object({ data: activationResource });
export const activationList = z.object({ data: z.array(activationResource) });

/** Body of POST/PATCH .../syndications: `attributes.syndication_params` (or `syndicationParams`). */
export const activationRequest = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  type: z.literal('journeyActivationStep').optional(),
  attributes: z.object({
    syndication_params: z.record(z.string(), z.unknown()).optional(),
    syndicationParams: z.record(z.string(), z.unknown()).optional(),
  }),
  relationships: z.record(z.string(), z.unknown()).optional(),
});

// Folder permissions

export const FOLDER_PERMISSIONS = ['full_control', 'view'] as const;
/** full_control: create, change, pause, resume and delete journeys; view: read only. */
export const folderPermission = z.enum(FOLDER_PERMISSIONS);
export type FolderPermission = z.infer<typeof folderPermission>;

/** PUT /entities/folders/:folderId/permissions: the complete list of grants on that folder. */
export const folderPermissionsRequest = z.object({
  permissions: z.array(
    z.object({
      userId: z.union([z.string().min(1), z.number().int()]),
      permission: folderPermission,
    }),
  ),
});

export const folderPermissionGrant = z.object({
  userId: z.string(),
  userName: z.string(),
  email: z.string(),
  permission: folderPermission,
  /** The folder the grant is made on: this one, or an ancestor it is inherited from. */
  folderId: z.string(),
  inherited: z.boolean(),
  grantedAt: z.string(),
});

/** GET/PUT answer: grants on the folder and inherited ones, and what the caller may do there. */
export const folderPermissions = z.object({
  folderId: z.string(),
  grants: z.array(folderPermissionGrant),
  /** Users without a grant here or on an ancestor have this permission; administrators always full_control. */
  defaultPermission: folderPermission,
  callerPermission: folderPermission,
});
export type FolderPermissions = z.infer<typeof folderPermissions>;
