import { IconFlag } from '@tabler/icons-react';
import { Panel } from '@xyflow/react';
import { useEditor, useEnvironment } from './EditorContext';

/** The journey's goal on the canvas; choosing it opens the journey settings, where it is edited. */
export function GoalBadge() {
  const goal = useEditor((s) => s.journey.goal);
  const select = useEditor((s) => s.select);
  const { segments } = useEnvironment();
  const segment = goal?.segmentId
    ? (segments.find((s) => s.id === goal.segmentId)?.name ?? `segment ${goal.segmentId}`)
    : null;
  const text = goal ? [goal.name || 'Unnamed goal', segment ?? 'no segment'].join(' · ') : 'No goal';
  return (
    <Panel position="top-center">
      <button
        type="button"
        className={`jc-goal ${goal ? '' : 'jc-goal-none'}`}
        aria-label={`Goal: ${text}. Open the journey settings`}
        onClick={() => {
          select({ kind: 'journey' });
          // The goal's field is in the settings panel, which this selection shows.
          requestAnimationFrame(() =>
            document
              .querySelector<HTMLInputElement>('aside[aria-label="Selected item settings"] input[data-goal-name]')
              ?.focus(),
          );
        }}
      >
        <IconFlag size={14} aria-hidden />
        {/* The space keeps "Goal" and the text two words for assistive technology (the flex gap draws it). */}
        <span className="jc-goal-label">Goal</span> <span className="jc-goal-text">{text}</span>
      </button>
    </Panel>
  );
}
