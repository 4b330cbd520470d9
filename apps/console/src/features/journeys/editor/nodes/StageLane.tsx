import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import type { StageNode } from '../model/flow';

/** The background band of one stage. */
export const StageLane = memo(function StageLane({ data }: NodeProps<StageNode>) {
  return (
    <div className="jc-lane">
      <span className="jc-lane-title">
        Stage {data.stageIndex + 1} · {data.stage.name || 'Unnamed stage'}
      </span>
    </div>
  );
});
