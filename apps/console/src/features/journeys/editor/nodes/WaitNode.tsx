import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const WaitNode = memo(function WaitNode({ id, data }: NodeProps<StepNode>) {
  const step = data.step.type === 'WaitStep' ? data.step : null;
  const days = step?.waitStep ?? 0;
  return (
    <StepCard
      id={id}
      kind="WaitStep"
      title={step?.name || `Wait ${days} day${days === 1 ? '' : 's'}`}
      subtitle="Paused time does not count"
      single="next"
    />
  );
});
