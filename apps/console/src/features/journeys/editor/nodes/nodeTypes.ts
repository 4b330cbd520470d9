import type { StepType } from '@svc/journey';
import type { NodeProps, NodeTypes } from '@xyflow/react';
import type { ComponentType } from 'react';
import type { StepNode } from '../model/flow';
import { ABTestNode } from './ABTestNode';
import { ActivationNode } from './ActivationNode';
import { DecisionNode } from './DecisionNode';
import { EndNode } from './EndNode';
import { MergeNode } from './MergeNode';
import { OpenNode } from './OpenNode';
import { StageLane } from './StageLane';
import { StartNode } from './StartNode';
import { WaitNode } from './WaitNode';

/** One node view per step kind; the mapped type makes a missing kind a type error. */
const stepNodeViews: { [T in StepType]: ComponentType<NodeProps<StepNode>> } = {
  Activation: ActivationNode,
  WaitStep: WaitNode,
  DecisionPoint: DecisionNode,
  Merge: MergeNode,
  End: EndNode,
  ABTest: ABTestNode,
};

/** Stable (module-level) so React Flow never re-creates its node renderers. */
export const nodeTypes = { ...stepNodeViews, start: StartNode, open: OpenNode, stage: StageLane } as NodeTypes;
