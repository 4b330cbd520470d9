export { abBucket, BUCKETS, effectivePercentages, hash32, uniqueValueOf, variantIndexForBucket } from './ab';
export type { CompiledExit, CompiledJourney, CompiledStage } from './compile';
export { compileJourney, stageKey } from './compile';
export { explainEvent } from './explain';
export type { VariantRef } from './location';
export { findVariantByLocation, variantLocation } from './location';
export type { Membership } from './movers';
export { definitionKey, membershipMovers, wakeAt, wakesAfterRun } from './movers';
export type { AdvanceContext, AdvanceOutput } from './profile';
export { advanceProfile, entryStage, ProfileWalker, waitDueAt } from './profile';
export { runJourney } from './run';
export type { Comparison } from './significance';
export { compareToControl, normalCdf } from './significance';
export type { SimulationInput, SimulationResult, SimulationStep } from './simulate';
export { nextDueAt, simulateProfile } from './simulate';
export type {
  FigureKind,
  FigureOf,
  JourneyStatistics,
  StatisticsTally,
  StatisticsWindow,
  VariantFigures,
} from './statistics';
export { defaultWindow, figureKey, figuresOf, journeyStatistics, shapeStatistics } from './statistics';
export type { Pauses } from './time';
export { activeMs, dueAfter, isPausedAt, normalizePauses, unitMs } from './time';
export * from './types';
