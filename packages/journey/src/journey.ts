import { z } from 'zod';
import { stepSchema } from './steps/registry';

/** Entry criteria and milestone: a named segment of the parent segment. */
export const criteriaSchema = z.object({
  name: z.string().default(''),
  segmentId: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
});

/** Units accepted for `exitAfter`. */
export const EXIT_AFTER_UNITS = ['days', 'day'] as const;

/** Leave the stage when in a segment (`segmentId`) or after some time (`exitAfter` + `unit`). */
export const exitCriterionSchema = z.object({
  name: z.string().default(''),
  description: z.string().nullable().optional(),
  segmentId: z.string().nullable().optional(),
  exitAfter: z.number().nullable().optional(),
  unit: z.string().nullable().optional(),
});

export const goalSchema = z.object({
  name: z.string().default(''),
  description: z.string().nullable().default(null),
  segmentId: z.string().nullable().default(null),
});

export const stageSchema = z.object({
  /** Absent until the server has stored the stage. */
  id: z.string().optional(),
  name: z.string().default(''),
  description: z.string().nullable().default(null),
  entryCriteria: criteriaSchema.nullable().default(null),
  milestone: criteriaSchema.nullable().default(null),
  exitCriterias: z.array(exitCriterionSchema).nullable().default(null),
  /** Steps keyed by their UUID; null when the stage has none. */
  steps: z.record(z.string(), stepSchema).nullable().default(null),
  /** UUID of the first step; null when the stage has none. */
  rootStep: z.string().nullable().default(null),
});

export const journeyStateSchema = z.enum(['draft', 'launched']);

/** A journey's attributes in their one camelCase form (what `normalizeJourney` yields and responses carry). */
export const journeySchema = z.object({
  audienceId: z.string().nullable().default(null),
  name: z.string().default(''),
  description: z.string().nullable().default(null),
  state: journeyStateSchema.default('draft'),
  goal: goalSchema.nullable().default(null),
  createdAt: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
  launchedAt: z.string().nullable().optional(),
  pausedAt: z.string().nullable().optional(),
  allowReentry: z.boolean().default(false),
  paused: z.boolean().default(false),
  journeyStages: z.array(stageSchema).default([]),
});

/** The goal as answers carry it: the spec's resource table lists `segment_id` (input takes both spellings). */
export const wireGoalSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  segment_id: z.string().nullable(),
});

/** A journey's attributes as answers carry them: camelCase, except the goal's `segment_id`. */
export const journeyWireSchema = journeySchema.extend({ goal: wireGoalSchema.nullable() });

export type Criteria = z.output<typeof criteriaSchema>;
export type ExitCriterion = z.output<typeof exitCriterionSchema>;
export type Goal = z.output<typeof goalSchema>;
export type Stage = z.output<typeof stageSchema>;
export type JourneyState = z.output<typeof journeyStateSchema>;
export type Journey = z.output<typeof journeySchema>;
export type WireGoal = z.output<typeof wireGoalSchema>;
export type WireJourney = z.output<typeof journeyWireSchema>;
