import { z } from '@hono/zod-openapi';

/** Wire shapes of the journey engine's routes (documented in the OpenAPI reference). */

const isoTime = z.string().openapi({ example: '2026-11-22T09:00:00.000Z' });
const count = z.number().int().nonnegative();

export const runSummarySchema = z
  .object({
    data: z.object({
      runId: z.number().int(),
      journeyId: z.string(),
      at: isoTime.describe('The run instant (service clock)'),
      status: z.enum(['success', 'skipped']),
      skipped: z.enum(['draft', 'paused']).nullable(),
      profiles: count.describe('Profiles of the parent segment looked at'),
      changed: count.describe('Profiles whose state changed'),
      events: count.describe('Events appended to the journey log'),
      queued: count.describe('Profiles queued for activations'),
      durationMs: count,
    }),
  })
  .openapi('JourneyRun');

const comparison = {
  uplift: z
    .number()
    .nullable()
    .describe('(rate − control rate) / control rate; null when the control converted nobody'),
  pValue: z.number().nullable().describe('Two-sided p-value of a pooled two-proportion z-test against the control'),
  confidence: z.number().nullable().describe('1 − pValue'),
};

export const statisticsSchema = z
  .object({
    data: z.object({
      journeyId: z.string(),
      window: z.object({ from: isoTime, to: isoTime }),
      entered: count.describe('Distinct profiles that entered the journey in the window'),
      entries: count.describe('Entries in the window, re-entries included'),
      current: count.describe('Profiles in the journey now'),
      goalReached: count.describe('Distinct profiles that reached the goal in the window'),
      left: z
        .object({ goal: count, exit_segment: count, exit_after: count, milestone: count, completed: count })
        .describe('Distinct profiles that left the journey in the window, by reason'),
      stages: z.array(
        z.object({
          stageId: z.string(),
          name: z.string(),
          entered: count,
          current: count,
          milestoneReached: count,
          exits: z.array(z.object({ criterionIndex: count, name: z.string(), profiles: count })),
          flow: z
            .object({ toNextStage: count, toGoal: count, toExit: count })
            .describe('Where profiles that left this stage went (stage-to-stage flow chart)'),
        }),
      ),
      steps: z.array(
        z.object({ stageId: z.string(), stepId: z.string(), type: z.string(), entered: count, current: count }),
      ),
      branches: z.array(
        z.object({ stageId: z.string(), stepId: z.string(), branchId: z.string(), name: z.string(), profiles: count }),
      ),
      abTests: z.array(
        z.object({
          stageId: z.string(),
          stepId: z.string(),
          name: z.string(),
          variants: z.array(
            z.object({
              variantId: z.string(),
              name: z.string(),
              control: z.boolean(),
              percentage: z.number(),
              profiles: count,
              goalReached: count.describe('Profiles of the variant that reached the goal at or after assignment'),
              conversionRate: z.number(),
              ...comparison,
            }),
          ),
        }),
      ),
      lastRun: z
        .object({
          at: isoTime,
          status: z.string(),
          skipped: z.string().nullable(),
          profiles: count,
          changed: count,
          events: count,
          durationMs: count,
          error: z.string().nullable(),
        })
        .nullable(),
    }),
  })
  .openapi('JourneyStatistics');

export const statisticsQuery = z.object({
  from: z
    .string()
    .optional()
    .openapi({ description: 'Start: a date (UTC day), ISO 8601 time or Unix seconds', example: '2026-11-01' }),
  to: z.string().optional().openapi({ description: 'End (a date means the end of that day)', example: '2026-11-22' }),
});

export const customersQuery = z.object({
  stage: z.string().optional().openapi({ description: 'Only profiles in this stage (stage id)' }),
  step: z.string().optional().openapi({ description: 'Only profiles at this step (step id)' }),
  status: z.enum(['active', 'left', 'all']).optional().openapi({ description: 'Default active: still in the journey' }),
  page: z.string().optional().openapi({ description: '1-based page number', example: '1' }),
  per_page: z.string().optional().openapi({ description: 'Profiles per page, 1 to 1000 (default 50)', example: '50' }),
});

const named = z.object({ stepId: z.string(), name: z.string().nullable() });

export const customersSchema = z
  .object({
    data: z.array(
      z.object({
        profileKey: z.string(),
        status: z.enum(['active', 'left']),
        stageId: z.string(),
        stageName: z.string().nullable(),
        stepId: z.string().nullable(),
        stepType: z.string().nullable(),
        stepName: z.string().nullable(),
        held: z.boolean().describe('Held at a decision point no path of which matches'),
        journeyEnteredAt: isoTime,
        stageEnteredAt: isoTime,
        stepEnteredAt: isoTime,
        waitingUntil: isoTime.nullable().describe('End of the current wait, given the pauses so far'),
        entries: count,
        leftAt: isoTime.nullable(),
        leftReason: z.string().nullable(),
        branches: z.array(named.extend({ branchId: z.string() })),
        variants: z.array(named.extend({ variantId: z.string(), control: z.boolean() })),
      }),
    ),
    meta: z.object({ total: count, page: count, perPage: count }),
  })
  .openapi('JourneyCustomers');

export const simulationRequestSchema = z.object({
  profileKey: z.string().optional().openapi({ description: 'The profile (its key value); default: a sample' }),
  sample: z.number().int().min(1).max(20).optional().openapi({ description: 'How many profiles when none is chosen' }),
  until: z.string().optional().openapi({ description: 'Future instant to simulate to', example: '2026-12-31' }),
  days: z.number().int().min(1).max(730).optional().openapi({ description: 'Or: days ahead (default 30)' }),
});

export const simulationSchema = z
  .object({
    data: z.array(
      z.object({
        profileKey: z.string(),
        startedInJourney: z.boolean(),
        stoppedBecause: z.enum(['until', 'left', 'no_entry', 'settled']),
        position: z
          .object({ status: z.enum(['active', 'left']), stageId: z.string(), stepId: z.string().nullable() })
          .nullable(),
        steps: z.array(
          z.object({
            at: isoTime,
            type: z.string(),
            stageId: z.string().nullable(),
            stepId: z.string().nullable(),
            explanation: z.string(),
          }),
        ),
      }),
    ),
    meta: z.object({ from: isoTime, until: isoTime, note: z.string() }),
  })
  .openapi('JourneySimulation');

export const deliveriesSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        at: isoTime,
        status: z.enum(['success', 'error']),
        profiles: count.describe('Profiles sent (or that could not be sent)'),
        target: z.string().nullable().describe('Where they went, e.g. database.table'),
        error: z.string().nullable(),
      }),
    ),
  })
  .openapi('JourneyDeliveries');

export const notificationsSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string(),
        activationId: z.string(),
        deliveryId: z.string().nullable(),
        createdAt: isoTime,
        recipients: z.array(z.string()),
        subject: z.string(),
        body: z.string(),
      }),
    ),
  })
  .openapi('JourneyNotifications');
