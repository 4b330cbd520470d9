import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const EndNode = memo(function EndNode({ id, data }: NodeProps<StepNode>) {
  return (
    <StepCard
      id={id}
      kind="End"
      title={data.step.name || 'End'}
      subtitle="Profiles stay until the stage exits"
      single={null}
    />
  );
});
