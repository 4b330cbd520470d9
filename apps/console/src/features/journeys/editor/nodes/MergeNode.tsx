import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const MergeNode = memo(function MergeNode({ id, data }: NodeProps<StepNode>) {
  return (
    <StepCard id={id} kind="Merge" title={data.step.name || 'Merge'} subtitle="Paths continue as one" single="next" />
  );
});
