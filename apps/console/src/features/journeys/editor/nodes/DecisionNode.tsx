import { branchLabel } from '@svc/journey';
import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useEnvironment } from '../EditorContext';
import { useCanvasFigures } from '../FiguresContext';
import { pathFigure } from '../model/figures';
import type { StepNode } from '../model/flow';
import { StepCard } from './StepCard';

export const DecisionNode = memo(function DecisionNode({ id, data }: NodeProps<StepNode>) {
  const { segments } = useEnvironment();
  const figures = useCanvasFigures();
  const step = data.step.type === 'DecisionPoint' ? data.step : null;
  const rows = (step?.branches ?? []).map((branch, index) => ({
    handle: `branch:${branch.id}` as const,
    name: `${index + 1}. ${branchLabel(branch, index)}`,
    meta: branch.excludedPath
      ? 'everyone else'
      : branch.segmentId
        ? (segments.find((s) => s.id === branch.segmentId)?.name ?? `segment ${branch.segmentId}`)
        : 'no segment',
    figure: pathFigure(figures?.paths.get(branch.id), `took the path “${branchLabel(branch, index)}”`),
  }));
  return <StepCard id={id} kind="DecisionPoint" title={step?.name || 'Decision point'} rows={rows} />;
});
