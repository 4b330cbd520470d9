export * from './document';
export * from './errors';
export type { DemoRefs } from './fixtures/demo-journeys';
export { demoRefs, largeJourneyAttributes, realisticJourneyAttributes } from './fixtures/demo-journeys';
export type { GraphEdge, GraphNode, StageGraphView } from './graph/canvas-graph';
export { edgeId, fromGraph, toGraph } from './graph/canvas-graph';
export type { Fragment } from './graph/fragment';
export { copyFragment, insertFragment, renewFragmentIds } from './graph/fragment';
export type { OpenEnd } from './graph/open-ends';
export { openEnds } from './graph/open-ends';
export type { ConnectInput, EdgeRef, InsertStepInput, StepRef } from './graph/operations';
export { connectExit, insertStep, removeStep, replaceStep } from './graph/operations';
export {
  addBranch,
  addVariant,
  moveBranch,
  removeBranch,
  removeVariant,
  setCustomSplit,
  setEvenSplit,
} from './graph/splits';
export * from './journey';
export * from './normalize';
export * from './references';
export { isRecord, spellJourney, spellStep } from './spelling';
export { evenSplit } from './split';
export * from './steps/ab-test';
export * from './steps/activation';
export * from './steps/decision-point';
export * from './steps/end';
export type { ExitHandle, ExitSlot, StepExit, StepKind } from './steps/kind';
export * from './steps/merge';
export * from './steps/registry';
export * from './steps/wait-step';
export { MAX_AB_LAYERS, MAX_DECISION_LAYERS } from './validate/graph-rules';
export type { ValidationContext } from './validate/validate-journey';
export { blocksDraft, validateForLaunch, validateJourney } from './validate/validate-journey';
export * from './violations';
