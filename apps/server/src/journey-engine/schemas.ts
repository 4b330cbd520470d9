import { z } from '@hono/zod-openapi';
import {
  activationTestRequest,
  activationTestResult,
  journeyCustomerStatus,
  journeyCustomers,
  journeyDeliveries,
  journeyEstimate,
  journeyHandover,
  journeyNotifications,
  journeyRunSummary,
  journeySimulation,
  journeySimulationRequest,
  journeyStatistics,
} from '@svc/contracts';

/**
 * Wire shapes of the journey engine's routes. The answers are defined once in `@svc/contracts` (the
 * console parses them with the same schemas); here they get their component names in the OpenAPI
 * reference, beside the query parameters, which only the server reads.
 */

export const runSummarySchema = z.object(journeyRunSummary.shape).openapi('JourneyRun');
export const statisticsSchema = z.object(journeyStatistics.shape).openapi('JourneyStatistics');
export const customersSchema = z.object(journeyCustomers.shape).openapi('JourneyCustomers');
export const simulationRequestSchema = journeySimulationRequest;
export const simulationSchema = z.object(journeySimulation.shape).openapi('JourneySimulation');
export const estimateSchema = z.object(journeyEstimate.shape).openapi('JourneyEstimate');
export const handoverSchema = z.object(journeyHandover.shape).openapi('JourneyHandover');
export const activationTestSchema = z.object(activationTestResult.shape).openapi('ActivationTest');
export const activationTestRequestSchema = activationTestRequest;
export const deliveriesQuery = z.object({
  status: z
    .enum(['success', 'error'])
    .optional()
    .openapi({ description: 'Only delivered (success) or failed (error)' }),
  before: z.string().optional().openapi({ description: 'Keyset cursor: meta.next of the page before (older ones)' }),
  per_page: z
    .string()
    .optional()
    .openapi({ description: 'Deliveries per page, 1 to 500 (default 100)', example: '100' }),
});
export const deliveriesSchema = z.object(journeyDeliveries.shape).openapi('JourneyDeliveries');
export const notificationsSchema = z.object(journeyNotifications.shape).openapi('JourneyNotifications');

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
  status: journeyCustomerStatus.optional().openapi({ description: 'Default active: still in the journey' }),
  page: z.string().optional().openapi({ description: '1-based page number', example: '1' }),
  after: z.string().optional().openapi({
    description: 'Keyset cursor: meta.next of the page before (instead of page; fast at any depth)',
  }),
  per_page: z.string().optional().openapi({ description: 'Profiles per page, 1 to 1000 (default 50)', example: '50' }),
});
