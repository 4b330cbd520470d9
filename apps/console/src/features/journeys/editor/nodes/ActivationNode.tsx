import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useEnvironment } from '../EditorContext';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const ActivationNode = memo(function ActivationNode({ id, data }: NodeProps<StepNode>) {
  const { activations } = useEnvironment();
  const step = data.step.type === 'Activation' ? data.step : null;
  const activationId = step?.journeyActivationStepId ?? null;
  const activation = activations.find((a) => a.id === activationId);
  const subtitle = activationId === null ? 'No activation chosen' : (activation?.name ?? `Activation ${activationId}`);
  return (
    <StepCard
      id={id}
      kind="Activation"
      title={step?.name || 'Activation'}
      subtitle={subtitle}
      missing={activationId === null}
      single="next"
    />
  );
});
