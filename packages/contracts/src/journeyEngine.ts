import { z } from 'zod';

/**
 * Wire shapes of the journey engine's routes (`/entities/journeys/:id/{run,statistics,customers,
 * simulation,notifications}` and an activation's deliveries). The server documents them in the OpenAPI
 * reference under component names; the console parses its answers with them.
 */

const isoTime = z.string().meta({ example: '2026-11-22T09:00:00.000Z' });
const count = z.number().int().nonnegative();

/** POST /entities/journeys/:id/run. */
export const journeyRunSummary = z.object({
  data: z.object({
    runId: z.number().int(),
    journeyId: z.string(),
    at: isoTime.describe('The run instant (service clock)'),
    status: z.enum(['success', 'skipped']),
    skipped: z.enum(['draft', 'paused']).nullable(),
    profiles: count.describe('Profiles of the parent segment'),
    looked: count.describe(
      'Profiles the run read and moved: those whose segment memberships changed since the last run or whose wait, exit or re-entry came due; everyone at the first run after a restart or a change of definition',
    ),
    evaluated: z
      .boolean()
      .optional()
      .describe(
        'Whether segment memberships were evaluated for this run; false when the parent segment build and the rules the journey reads are unchanged since the last run (none reads the time), so its memberships were kept',
      ),
    membersRead: count
      .optional()
      .describe(
        'Sets of profiles (the parent segment and each segment the journey reads) whose members were read for this run: those that changed since the journey’s last run on this node; the others were reused',
      ),
    changed: count.describe('Profiles whose state changed'),
    events: count.describe('Events appended to the journey log'),
    queued: count.describe('Profiles queued for activations'),
    durationMs: count,
    deliveries: z
      .object({
        delivered: count.describe('Profiles sent right after the run'),
        failed: count.describe('Profiles whose delivery failed; they are tried again with backoff'),
        waiting: count.describe('Profiles still queued: their activation’s schedule is not due yet, or a retry waits'),
        error: z.string().nullable().describe('Why the first failed delivery failed'),
      })
      .describe('The activation deliveries that were due, sent right after the run'),
  }),
});
export type JourneyRunSummary = z.infer<typeof journeyRunSummary>;

const comparison = {
  uplift: z
    .number()
    .nullable()
    .describe('(rate − control rate) / control rate; null when the control converted nobody'),
  pValue: z.number().nullable().describe('Two-sided p-value of a pooled two-proportion z-test against the control'),
  confidence: z.number().nullable().describe('1 − pValue'),
};

export const journeyStageFigures = z.object({
  stageId: z.string(),
  name: z.string(),
  entered: count,
  current: count,
  milestoneReached: count,
  exits: z.array(z.object({ criterionIndex: count, name: z.string(), profiles: count })),
  flow: z
    .object({ toNextStage: count, toGoal: count, toExit: count })
    .describe('Where profiles that left this stage went (stage-to-stage flow chart)'),
});
export type JourneyStageFigures = z.infer<typeof journeyStageFigures>;

export const journeyVariantFigures = z.object({
  variantId: z.string(),
  name: z.string(),
  control: z.boolean(),
  percentage: z.number(),
  profiles: count,
  goalReached: count.describe('Profiles of the variant that reached the goal at or after assignment'),
  conversionRate: z.number(),
  ...comparison,
});
export type JourneyVariantFigures = z.infer<typeof journeyVariantFigures>;

export const journeyAbTestFigures = z.object({
  stageId: z.string(),
  stepId: z.string(),
  name: z.string(),
  variants: z.array(journeyVariantFigures),
});
export type JourneyAbTestFigures = z.infer<typeof journeyAbTestFigures>;

/** GET /entities/journeys/:id/statistics. */
export const journeyStatistics = z.object({
  data: z.object({
    journeyId: z.string(),
    window: z.object({ from: isoTime, to: isoTime }),
    entered: count.describe('Distinct profiles that entered the journey in the window'),
    entries: count.describe('Entries in the window, re-entries included'),
    current: count.describe('Profiles in the journey now'),
    goalReached: count.describe('Distinct profiles that reached the goal in the window'),
    left: z
      .object({
        goal: count,
        exit_segment: count,
        exit_after: count,
        milestone: count,
        completed: count,
        version_changed: count.optional().describe('Left when a new version replaced the journey (no events: 0)'),
      })
      .describe('Distinct profiles that left the journey in the window, by reason'),
    stages: z.array(journeyStageFigures),
    steps: z.array(
      z.object({ stageId: z.string(), stepId: z.string(), type: z.string(), entered: count, current: count }),
    ),
    branches: z.array(
      z.object({ stageId: z.string(), stepId: z.string(), branchId: z.string(), name: z.string(), profiles: count }),
    ),
    abTests: z.array(journeyAbTestFigures),
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
});
export type JourneyStatistics = z.infer<typeof journeyStatistics>['data'];

/** `status` filter of the customers list: still in the journey (default), left, or both. */
export const journeyCustomerStatus = z.enum(['active', 'left', 'all']);
export type JourneyCustomerStatus = z.infer<typeof journeyCustomerStatus>;

const namedStep = z.object({ stepId: z.string(), name: z.string().nullable() });

export const journeyCustomer = z.object({
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
  branches: z.array(namedStep.extend({ branchId: z.string() })),
  variants: z.array(namedStep.extend({ variantId: z.string(), control: z.boolean() })),
});
export type JourneyCustomer = z.infer<typeof journeyCustomer>;

/** GET /entities/journeys/:id/customers. */
export const journeyCustomers = z.object({
  data: z.array(journeyCustomer),
  meta: z.object({
    total: count,
    page: count,
    perPage: count,
    next: z.string().nullable().describe('Cursor of the next page (pass it as `after`); null on the last page'),
  }),
});
export type JourneyCustomers = z.infer<typeof journeyCustomers>;

/** Body of POST /entities/journeys/:id/simulation; every field optional. */
export const journeySimulationRequest = z.object({
  profileKey: z.string().optional().describe('The profile (its key value); default: a sample'),
  sample: z.number().int().min(1).max(20).optional().describe('How many profiles when none is chosen'),
  until: z.string().optional().describe('Future instant to simulate to').meta({ example: '2026-12-31' }),
  days: z.number().int().min(1).max(730).optional().describe('Or: days ahead (default 30)'),
});
export type JourneySimulationRequest = z.infer<typeof journeySimulationRequest>;

export const simulatedProfile = z.object({
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
});
export type SimulatedProfile = z.infer<typeof simulatedProfile>;

/** POST /entities/journeys/:id/simulation. */
export const journeySimulation = z.object({
  data: z.array(simulatedProfile),
  meta: z.object({ from: isoTime, until: isoTime, note: z.string() }),
});
export type JourneySimulation = z.infer<typeof journeySimulation>;

export const journeyDelivery = z.object({
  id: z.string(),
  at: isoTime,
  status: z.enum(['success', 'error']),
  profiles: count.describe('Profiles sent (or that could not be sent)'),
  target: z.string().nullable().describe('Where they went, e.g. database.table'),
  error: z.string().nullable(),
  responseCode: z.number().int().nullable().describe('The HTTP status code a webhook answered; null otherwise'),
});
export type JourneyDelivery = z.infer<typeof journeyDelivery>;

/** GET /entities/journeys/:id/syndications/:activationId/deliveries: newest first, in keyset pages. */
export const journeyDeliveries = z.object({
  data: z.array(journeyDelivery),
  meta: z.object({
    next: z.string().nullable().describe('Cursor of older deliveries (pass it as `before`); null on the last page'),
  }),
});

export const journeyNotification = z.object({
  id: z.string(),
  activationId: z.string(),
  deliveryId: z.string().nullable(),
  createdAt: isoTime,
  recipients: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
});
export type JourneyNotification = z.infer<typeof journeyNotification>;

/** GET /entities/journeys/:id/notifications. */
export const journeyNotifications = z.object({ data: z.array(journeyNotification) });

export const journeyStageEstimate = z.object({
  stageId: z.string(),
  name: z.string(),
  matchingEntry: count.describe('Profiles not yet in the journey that match the stage’s entry criteria now'),
  entering: count.describe('Profiles that would enter the stage at the next run'),
  takenByLaterStage: count.describe('Profiles matching the entry criteria that enter a later stage instead'),
  keptOut: count.describe('Profiles matching the entry criteria kept out: in the goal or one of its exit segments'),
  exiting: count.describe('Profiles that would leave the stage by an exit criterion at the next run'),
});
export type JourneyStageEstimate = z.infer<typeof journeyStageEstimate>;

/** GET /entities/journeys/:id/estimate. */
export const journeyEstimate = z.object({
  data: z.object({
    journeyId: z.string(),
    at: isoTime.describe('The instant estimated for (the service clock’s now)'),
    profiles: count.describe('Profiles of the parent segment'),
    alreadyIn: count.describe('Profiles in the journey now (launched journeys)'),
    entering: count.describe('Profiles that would enter the journey at the next run'),
    stages: z.array(journeyStageEstimate),
    goal: z.object({
      reaching: count.describe('Profiles that would reach the goal at the next run'),
      inGoalNow: count.describe('Profiles of the parent segment in the goal segment now (they do not enter)'),
    }),
    exiting: count.describe('Profiles that would leave by an exit criterion at the next run'),
    queued: count.describe('Profiles that would be queued for activations at the next run'),
    rule: z.string().describe('How a profile is placed when it matches several stages'),
  }),
});
export type JourneyEstimate = z.infer<typeof journeyEstimate>['data'];

/** GET /entities/journeys/:id/handover: what launching a draft version would do to its source's profiles. */
export const journeyHandover = z.object({
  data: z
    .object({
      replaces: z.object({ id: z.string(), name: z.string() }),
      keep: z.number().int().describe('Profiles in the source that keep their place'),
      leave: z.number().int().describe('Profiles in the source whose stage or step changed: they leave'),
      alreadyLeft: z.number().int().describe('Profiles that had left the source; they stay left'),
      rule: z.string().describe('The rule, in a sentence'),
    })
    .nullable()
    .describe('null when the journey is not a draft version of a launched journey'),
});
export type JourneyHandover = z.infer<typeof journeyHandover>['data'];

/** POST /entities/journeys/:id/syndications/test: where to send a test profile. */
export const activationTestRequest = z.object({
  url: z.string().max(2048).optional().describe('A webhook URL not saved yet'),
  connectionId: z.string().max(256).optional().describe('Or the name of a saved result connection'),
  activationId: z
    .string()
    .max(32)
    .optional()
    .describe('A saved activation whose webhook settings (and stored header values) the test uses'),
  connectorConfig: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Webhook settings as typed, checked as at save: method, headers [{name, value}], bodyTemplate'),
});
export type ActivationTestRequest = z.infer<typeof activationTestRequest>;

export const activationTestResult = z.object({
  data: z.object({
    status: z.enum(['success', 'error']),
    target: z.string(),
    responseCode: z.number().int().nullable().describe('The HTTP status code the webhook answered'),
    responseExcerpt: z.string().nullable().describe('The first 500 characters of the webhook’s answer'),
    error: z.string().nullable(),
  }),
});
export type ActivationTestResult = z.infer<typeof activationTestResult>['data'];
