import type { NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useStageFigures } from '../FiguresContext';
import { stageFiguresLabel } from '../model/figures';
import type { StageNode } from '../model/flow';
import { stageTitle } from '../model/flow';

/** The background band of one stage, with the engine's figures for the stage in its header. */
export const StageLane = memo(function StageLane({ data }: NodeProps<StageNode>) {
  const figures = useStageFigures(data.stageIndex);
  return (
    <div className="jc-lane">
      <span className="jc-lane-title">{stageTitle(data.stageIndex, data.stage.name)}</span>
      {figures && (
        <span className="jc-lane-figures" role="img" aria-label={stageFiguresLabel(data.stageIndex, figures)}>
          <span>
            <b>{figures.entered.toLocaleString('en')}</b> entered
          </span>
          <span>
            <b>{figures.current.toLocaleString('en')}</b> in stage
          </span>
          <span>
            <b>{figures.milestoneReached.toLocaleString('en')}</b> milestone
          </span>
          {figures.exits.map((exit) => (
            <span key={exit.name} className="jc-lane-exit">
              <b>{exit.profiles.toLocaleString('en')}</b> exited: {exit.name}
            </span>
          ))}
        </span>
      )}
    </div>
  );
});
