import { Handle, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { useEditor, useEnvironment } from '../EditorContext';
import type { StartNode as StartNodeType } from '../model/flow';
import { EntryCriteriaField, ExitCriteriaFields, MilestoneField } from '../panels/StageCriteriaFields';
import { StageCriterion } from './StageCriterion';

const NO_PROBLEMS: never[] = [];

/** The stage's card at the start of its lane: name and criteria, each editable in place; selecting it edits all. */
export const StartNode = memo(function StartNode({ data }: NodeProps<StartNodeType>) {
  const { segments } = useEnvironment();
  const problems = useEditor((s) => s.problems.byStage.get(data.stageIndex) ?? NO_PROBLEMS);
  const nameOf = (id: string | null | undefined) =>
    id ? (segments.find((s) => s.id === id)?.name ?? `segment ${id}`) : null;
  const { stage, stageIndex } = data;
  const exits = (stage.exitCriterias ?? [])
    .map((e) => e.name || (e.segmentId ? nameOf(e.segmentId) : e.exitAfter ? `after ${e.exitAfter} days` : ''))
    .filter(Boolean);
  const entry = nameOf(stage.entryCriteria?.segmentId);
  const milestone = nameOf(stage.milestone?.segmentId);
  const exitText = exits.length > 0 ? exits.join(', ') : 'none';
  return (
    <div className="jc-card jc-start">
      <div className="jc-kind">Stage {stageIndex + 1}</div>
      <div className="jc-title" style={{ fontSize: 15 }}>
        {stage.name || 'Unnamed stage'}
      </div>
      <dl>
        <dt>Entry</dt>
        <StageCriterion
          stageIndex={stageIndex}
          label="Entry criteria"
          summary={entry ?? <span style={{ color: '#c92a2a' }}>not set</span>}
          summaryText={entry ?? 'not set'}
        >
          <EntryCriteriaField stageIndex={stageIndex} autoFocus />
        </StageCriterion>
        <dt>Milestone</dt>
        <StageCriterion
          stageIndex={stageIndex}
          label="Milestone"
          summary={milestone ?? '—'}
          summaryText={milestone ?? 'none'}
        >
          <MilestoneField stageIndex={stageIndex} autoFocus />
        </StageCriterion>
        <dt>Exit</dt>
        <StageCriterion
          stageIndex={stageIndex}
          label="Exit criteria"
          summary={exits.length > 0 ? exitText : '—'}
          summaryText={exitText}
        >
          <ExitCriteriaFields stageIndex={stageIndex} />
        </StageCriterion>
      </dl>
      <Handle type="source" position={Position.Right} id="start" isConnectable={false} />
      {problems.length > 0 && (
        <span
          className={`jc-badge ${problems.some((p) => p.blocksSave) ? '' : 'jc-warn'}`}
          role="img"
          aria-label={`${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.message).join(' ')}`}
          title={problems.map((p) => p.message).join('\n')}
        >
          {problems.length}
        </span>
      )}
    </div>
  );
});
