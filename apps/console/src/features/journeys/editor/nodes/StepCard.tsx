import type { ExitHandle } from '@svc/journey';
import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import { useStepProblems } from '../EditorContext';
import { useStepFigures } from '../FiguresContext';
import { stepFiguresLabel } from '../model/figures';
import { exitHandleTop } from '../model/sizes';
import { KIND_LOOKS } from './kindLooks';

export interface StepCardProps {
  id: string;
  kind: keyof typeof KIND_LOOKS;
  title: string;
  subtitle?: ReactNode;
  missing?: boolean;
  /** Split nodes: one row (and one output) per path, in order. */
  rows?: Array<{
    handle: ExitHandle;
    name: string;
    meta?: ReactNode;
    chip?: string;
    /** The engine's count of profiles on this path, with what it means in words. */
    figure?: { profiles: number; label: string } | undefined;
  }>;
  /** Single-output nodes: the handle of their `next`; End has none. */
  single?: ExitHandle | null;
  className?: string;
}

/** The shell every step node shares: icon, kind, title, the engine's figures, problems badge and its handles. */
export function StepCard({ id, kind, title, subtitle, missing, rows, single, className }: StepCardProps) {
  const problems = useStepProblems(id);
  const figures = useStepFigures(id);
  const look = KIND_LOOKS[kind];
  const blocking = problems.some((p) => p.blocksSave);
  return (
    <div className={`jc-card ${className ?? ''}`}>
      <Handle type="target" position={Position.Left} id="in" isConnectable />
      <div className="jc-head">
        <span className="jc-icon" style={{ background: look.color }} aria-hidden>
          {look.icon}
        </span>
        <div style={{ minWidth: 0, flex: 1 }}>
          <div className="jc-kind">{look.label}</div>
          <div className="jc-title">{title}</div>
        </div>
        {figures && (
          <span className="jc-figures" role="img" aria-label={stepFiguresLabel(figures)}>
            <span>
              <b>{figures.current.toLocaleString('en')}</b> here
            </span>
            <span>{figures.entered.toLocaleString('en')} entered</span>
          </span>
        )}
      </div>
      {subtitle !== undefined && <div className={`jc-sub ${missing ? 'jc-missing' : ''}`}>{subtitle}</div>}
      {rows && (
        <div className="jc-rows">
          {rows.map((row) => (
            <div className="jc-row" key={row.handle}>
              <span className="jc-row-name">{row.name}</span>
              {row.chip && <span className="jc-chip">{row.chip}</span>}
              {row.meta !== undefined && <span className="jc-row-meta">{row.meta}</span>}
              {row.figure && (
                <span className="jc-row-count" role="img" aria-label={row.figure.label}>
                  {row.figure.profiles.toLocaleString('en')}
                </span>
              )}
            </div>
          ))}
        </div>
      )}
      {rows?.map((row, index) => (
        <Handle
          key={row.handle}
          type="source"
          position={Position.Right}
          id={row.handle}
          style={{ top: exitHandleTop(index) }}
        />
      ))}
      {single && <Handle type="source" position={Position.Right} id={single} />}
      {problems.length > 0 && (
        <span
          className={`jc-badge ${blocking ? '' : 'jc-warn'}`}
          role="img"
          aria-label={`${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map((p) => p.message).join(' ')}`}
          title={problems.map((p) => p.message).join('\n')}
        >
          {problems.length}
        </span>
      )}
    </div>
  );
}
