import type { ExitHandle, Journey, Stage, Step, StepType } from '@svc/journey';
import { fromGraph, stepExits, stepKinds, stepTypes, toGraph } from '@svc/journey';
import type { Edge, Node } from '@xyflow/react';

/**
 * The journey as React Flow nodes and edges, and back. Per stage: a lane node (`stage`), its start card
 * (`start`, carrying the stage's criteria), a node per step (type = step kind, data = the step with its
 * connections cleared) and an `open` node at each path that leads nowhere yet, so "+" can extend it.
 * Edges carry where a new step would go (`after`), so "+" on any edge is one insert command.
 * Node data holds no callbacks: nodes dispatch commands through the editor store.
 */

export interface StageNodeData extends Record<string, unknown> {
  stageIndex: number;
  stage: Omit<Stage, 'steps' | 'rootStep'>;
}

export interface StartNodeData extends Record<string, unknown> {
  stageIndex: number;
  stage: Omit<Stage, 'steps' | 'rootStep'>;
}

export interface StepNodeData extends Record<string, unknown> {
  stageIndex: number;
  step: Step;
  exits: Array<{ handle: ExitHandle; label: string }>;
}

export interface OpenNodeData extends Record<string, unknown> {
  stageIndex: number;
  stepId: string | null;
  handle: ExitHandle | null;
  label: string;
}

export interface JourneyEdgeData extends Record<string, unknown> {
  stageIndex: number;
  /** The edge's source step (null: the stage start) and which of its exits. */
  stepId: string | null;
  handle: ExitHandle | null;
  /** Where this edge enters an `open` node rather than a step. */
  open: boolean;
  /** Where this edge joins a merge: its "+" sits at its start, so the "+" of paths joining there do not pile up. */
  joins: boolean;
  label: string;
  /** Display name of the source step ("" for the stage start). */
  from: string;
}

export type StageNode = Node<StageNodeData, 'stage'>;
export type StartNode = Node<StartNodeData, 'start'>;
export type StepNode = Node<StepNodeData, StepType>;
export type OpenNode = Node<OpenNodeData, 'open'>;
export type JourneyNode = StageNode | StartNode | StepNode | OpenNode;
export type JourneyEdge = Edge<JourneyEdgeData, 'journey'>;

export interface JourneyFlow {
  nodes: JourneyNode[];
  edges: JourneyEdge[];
}

const stageNodeId = (stageIndex: number) => `stage-${stageIndex}`;
const startNodeId = (stageIndex: number) => `start-${stageIndex}`;
const openNodeId = (stageIndex: number, stepId: string | null, handle: string | null) =>
  `open-${stageIndex}-${stepId ?? 'start'}-${handle ?? ''}`;

export function isStepNode(node: JourneyNode): node is StepNode {
  return (stepTypes as string[]).includes(node.type ?? '');
}

function stageAttributes(stage: Stage): Omit<Stage, 'steps' | 'rootStep'> {
  const { steps: _steps, rootStep: _root, ...rest } = stage;
  return rest;
}

/**
 * A step's node data, the same object as last time while the step object is the same (commands replace
 * only the steps they change), so the canvas can tell unchanged nodes apart by reference.
 */
const stepDataCache = new WeakMap<Step, StepNodeData>();

function stepData(stageIndex: number, step: Step, cleared: Step, exits: ReturnType<typeof stepExits>): StepNodeData {
  const known = stepDataCache.get(step);
  if (known && known.stageIndex === stageIndex) return known;
  const data = { stageIndex, step: cleared, exits: exits.map((e) => ({ handle: e.handle, label: e.label })) };
  stepDataCache.set(step, data);
  return data;
}

/** Nodes and edges without positions (layout places them). */
export function journeyToFlow(journey: Journey): JourneyFlow {
  const nodes: JourneyNode[] = [];
  const edges: JourneyEdge[] = [];
  journey.journeyStages.forEach((stage, stageIndex) => {
    const parentId = stageNodeId(stageIndex);
    const attributes = stageAttributes(stage);
    nodes.push({ id: parentId, type: 'stage', position: { x: 0, y: 0 }, data: { stageIndex, stage: attributes } });
    const start = startNodeId(stageIndex);
    nodes.push({
      id: start,
      type: 'start',
      parentId,
      position: { x: 0, y: 0 },
      data: { stageIndex, stage: attributes },
      ariaLabel: `Stage ${stageIndex + 1}: ${stage.name || 'unnamed'}`,
      // A group (React Flow's role for a focusable node), not a button: the card holds buttons of its own,
      // and a button's name would have to repeat every text it shows (WCAG 2.5.3).
      ariaRole: 'group',
    });
    const graph = toGraph(stage);
    const full = stage.steps ?? {};
    const targets = new Set(Object.keys(full));
    const openAt = (stepId: string | null, handle: ExitHandle | null, label: string) => {
      const id = openNodeId(stageIndex, stepId, handle);
      nodes.push({ id, type: 'open', parentId, position: { x: 0, y: 0 }, data: { stageIndex, stepId, handle, label } });
      return id;
    };
    const edge = (source: string, sourceHandle: ExitHandle | null, target: string, data: JourneyEdgeData) => {
      edges.push({
        id: `${source}->${sourceHandle ?? 'start'}`,
        type: 'journey',
        source,
        target,
        selectable: false,
        focusable: false,
        ...(sourceHandle ? { sourceHandle } : {}),
        data,
      });
    };
    const root = stage.rootStep !== null && targets.has(stage.rootStep) ? stage.rootStep : null;
    const rootTarget = root ?? openAt(null, null, 'Start');
    edge(start, null, rootTarget, {
      stageIndex,
      stepId: null,
      handle: null,
      open: root === null,
      joins: root !== null && full[root]?.type === 'Merge',
      label: '',
      from: '',
    });
    for (const node of graph.nodes) {
      const step = full[node.id] as Step;
      const exits = stepExits(step);
      nodes.push({
        id: node.id,
        type: node.type,
        parentId,
        position: { x: 0, y: 0 },
        data: stepData(stageIndex, step, node.data, exits),
        ariaLabel: `${stepKinds[step.type].label}: ${stepDisplayName(step)}`,
        ariaRole: 'group',
      });
      for (const exit of exits) {
        const inside = exit.target !== null && targets.has(exit.target);
        const target = inside ? (exit.target as string) : openAt(node.id, exit.handle, exit.label);
        const label = exits.length > 1 ? exit.label : '';
        const from = stepDisplayName(step);
        edge(node.id, exit.handle, target, {
          stageIndex,
          stepId: node.id,
          handle: exit.handle,
          open: !inside,
          joins: inside && full[target]?.type === 'Merge',
          label,
          from,
        });
      }
    }
  });
  return { nodes, edges };
}

/** The inverse of `journeyToFlow`: stage attributes from lane nodes, steps and connections from step nodes and edges. */
export function flowToJourney(base: Journey, flow: JourneyFlow): Journey {
  const stageNodes = flow.nodes.filter((n): n is StageNode => n.type === 'stage');
  const journeyStages = stageNodes.map((lane) => {
    const parentId = lane.id;
    const stepNodes = flow.nodes.filter((n): n is StepNode => n.parentId === parentId && isStepNode(n));
    const stepIds = new Set(stepNodes.map((n) => n.id));
    const laneEdges = flow.edges.filter((e) => e.data?.stageIndex === lane.data.stageIndex && stepIds.has(e.target));
    const rootEdge = laneEdges.find((e) => e.data?.stepId === null);
    const graph = {
      rootStep: rootEdge ? rootEdge.target : null,
      nodes: stepNodes.map((n) => ({ id: n.id, type: n.data.step.type, data: n.data.step })),
      edges: laneEdges
        .filter((e) => e.data?.stepId !== null && e.data?.handle)
        .map((e) => ({
          id: e.id,
          source: e.source,
          sourceHandle: e.data?.handle as ExitHandle,
          target: e.target,
        })),
    };
    return { ...lane.data.stage, ...fromGraph(graph) };
  });
  return { ...base, journeyStages };
}

/** How a step is called in labels: its name, or what it does. */
export function stepDisplayName(step: Step): string {
  if (step.name) return step.name;
  if (step.type === 'WaitStep') return `Wait ${step.waitStep} day${step.waitStep === 1 ? '' : 's'}`;
  return stepKinds[step.type].label;
}

/** "Stage 2 · Follow-up"; just "Stage 2" when the stage has no name or is named after its number. */
export function stageTitle(stageIndex: number, name: string | undefined): string {
  const number = `Stage ${stageIndex + 1}`;
  const trimmed = (name ?? '').trim();
  return trimmed === '' || trimmed.toLowerCase() === number.toLowerCase() ? number : `${number} · ${trimmed}`;
}

/** A step in a list of steps: its name, with its kind when the name does not already say it. */
export function stepOptionLabel(step: Step): string {
  const name = stepDisplayName(step);
  const kind = stepKinds[step.type].label;
  return name.toLowerCase().startsWith(kind.toLowerCase()) ? name : `${name} · ${kind}`;
}
