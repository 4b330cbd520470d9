import { Handle, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import { useEditor, useEnvironment } from '../EditorContext';
import type { StartNode as StartNodeType } from '../model/flow';

const NO_PROBLEMS: never[] = [];

/** The stage's card at the start of its lane: name and criteria; selecting it edits them. */
export const StartNode = memo(function StartNode({ data }: NodeProps<StartNodeType>) {
  const { segments } = useEnvironment();
  const problems = useEditor((s) => s.problems.byStage.get(data.stageIndex) ?? NO_PROBLEMS);
  const nameOf = (id: string | null | undefined) =>
    id ? (segments.find((s) => s.id === id)?.name ?? `segment ${id}`) : null;
  const { stage } = data;
  const exits = (stage.exitCriterias ?? [])
    .map((e) => e.name || (e.segmentId ? nameOf(e.segmentId) : e.exitAfter ? `after ${e.exitAfter} days` : ''))
    .filter(Boolean);
  return (
    <div className="jc-card jc-start">
      <div className="jc-kind">Stage {data.stageIndex + 1}</div>
      <div className="jc-title" style={{ fontSize: 15 }}>
        {stage.name || 'Unnamed stage'}
      </div>
      <dl>
        <dt>Entry</dt>
        <dd>{nameOf(stage.entryCriteria?.segmentId) ?? <span style={{ color: '#c92a2a' }}>not set</span>}</dd>
        <dt>Milestone</dt>
        <dd>{nameOf(stage.milestone?.segmentId) ?? '—'}</dd>
        <dt>Exit</dt>
        <dd>{exits.length > 0 ? exits.join(', ') : '—'}</dd>
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
