import { variantLabel } from '@svc/journey';
import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const ABTestNode = memo(function ABTestNode({ id, data }: NodeProps<StepNode>) {
  const step = data.step.type === 'ABTest' ? data.step : null;
  const rows = (step?.variants ?? []).map((variant, index) => ({
    handle: `variant:${variant.id}` as const,
    name: variantLabel(variant, index),
    meta: `${variant.percentage} %`,
    ...(index === 0 ? { chip: 'control' } : {}),
  }));
  return <StepCard id={id} kind="ABTest" title={step?.name || 'A/B test'} rows={rows} />;
});
