import { variantLabel } from '@svc/journey';
import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useCanvasFigures } from '../FiguresContext';
import { pathFigure } from '../model/figures';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const ABTestNode = memo(function ABTestNode({ id, data }: NodeProps<StepNode>) {
  const figures = useCanvasFigures();
  const step = data.step.type === 'ABTest' ? data.step : null;
  const rows = (step?.variants ?? []).map((variant, index) => ({
    handle: `variant:${variant.id}` as const,
    name: variantLabel(variant, index),
    meta: `${variant.percentage} %`,
    ...(index === 0 ? { chip: 'control' } : {}),
    figure: pathFigure(figures?.paths.get(variant.id), `in the variant “${variantLabel(variant, index)}”`),
  }));
  return <StepCard id={id} kind="ABTest" title={step?.name || 'A/B test'} rows={rows} />;
});
