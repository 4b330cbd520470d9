import { Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { EdgeRef, StepType } from '@svc/journey';
import { stepExits, stepTypes } from '@svc/journey';
import { useId } from 'react';
import { useEditor, useEditorStore } from './EditorContext';
import { markStepDrag } from './edges/useStepDrop';
import { STEP_DRAG_TYPE } from './model/edgeRef';
import { KIND_LOOKS } from './nodes/kindLooks';

const HINTS: Record<StepType, string> = {
  Activation: 'Send profiles to a connection',
  WaitStep: 'Wait a number of days',
  DecisionPoint: 'Split by segment, in order',
  Merge: 'Bring paths back together',
  End: 'End a path',
  ABTest: 'Split at random, with a control',
};

/**
 * Step kinds to add. Drag one onto a connection, its "+" or a dashed placeholder, or press it to add after the selected step
 * (on its first open path) or, with a stage selected, at the stage's start.
 */
export function Palette() {
  const store = useEditorStore();
  const readOnly = useEditor((s) => s.readOnly);
  const hintId = useId();
  const add = (stepType: StepType) => {
    const { selection, journey } = store.getState();
    let stageIndex = 0;
    let after: EdgeRef = { stepId: null };
    if (selection?.kind === 'steps' && selection.stepIds.length === 1) {
      stageIndex = selection.stageIndex;
      const stepId = selection.stepIds[0] as string;
      const step = journey.journeyStages[stageIndex]?.steps?.[stepId];
      const exits = step ? stepExits(step) : [];
      const open = exits.find((e) => e.target === null) ?? exits[0];
      after = open ? { stepId, slot: open.slot } : { stepId };
    } else if (selection?.kind === 'stage') stageIndex = selection.stageIndex;
    store.getState().addStep({ stageIndex, after }, stepType);
  };
  return (
    <nav aria-label="Step palette">
      <Stack gap={6} p="xs">
        <Text size="xs" fw={700} c="dimmed" tt="uppercase">
          Add a step
        </Text>
        {stepTypes.map((type) => (
          <UnstyledButton
            key={type}
            draggable={!readOnly}
            disabled={readOnly}
            aria-describedby={`${hintId}-${type}`}
            onDragStart={(event) => {
              event.dataTransfer.setData(STEP_DRAG_TYPE, type);
              event.dataTransfer.effectAllowed = 'copy';
              markStepDrag(true);
            }}
            onDragEnd={() => markStepDrag(false)}
            onClick={() => add(type)}
            style={{
              display: 'flex',
              gap: 8,
              alignItems: 'center',
              padding: '6px 8px',
              borderRadius: 8,
              border: '1px solid #e3e6ee',
              background: '#fff',
              opacity: readOnly ? 0.5 : 1,
            }}
          >
            <span className="jc-icon" style={{ background: KIND_LOOKS[type].color }}>
              {KIND_LOOKS[type].icon}
            </span>
            <span>
              {/* The name is what the button shows: "Add Activation", the hint its description (WCAG 2.5.3). */}
              <Text size="sm" fw={600} lh={1.2}>
                <VisuallyHidden>Add </VisuallyHidden>
                {KIND_LOOKS[type].label}
              </Text>
              <Text size="xs" c="dimmed" lh={1.2} id={`${hintId}-${type}`} aria-hidden>
                {HINTS[type]}
              </Text>
            </span>
          </UnstyledButton>
        ))}
      </Stack>
    </nav>
  );
}
