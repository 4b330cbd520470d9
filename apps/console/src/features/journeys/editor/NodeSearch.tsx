import { Modal, Select } from '@mantine/core';
import { stepKinds } from '@svc/journey';
import { useMemo, useRef } from 'react';
import { useEditor } from './EditorContext';
import { stepDisplayName } from './model/flow';

export interface NodeSearchProps {
  opened: boolean;
  onClose(): void;
  onPick(nodeId: string): void;
}

/** Finds a step (or a stage) by name or kind in a large journey and goes to it. */
export function NodeSearch({ opened, onClose, onPick }: NodeSearchProps) {
  const journey = useEditor((s) => s.journey);
  // Go to the step once the dialog is gone, so focus lands on the step and stays there.
  const picked = useRef<string | null>(null);
  const data = useMemo(
    () =>
      journey.journeyStages.map((stage, stageIndex) => ({
        group: `Stage ${stageIndex + 1}: ${stage.name || 'unnamed'}`,
        items: [
          { value: `start-${stageIndex}`, label: `Stage ${stageIndex + 1} criteria (${stage.name || 'unnamed'})` },
          ...Object.entries(stage.steps ?? {}).map(([id, step]) => ({
            value: id,
            label: `${stepDisplayName(step)} · ${stepKinds[step.type].label} · stage ${stageIndex + 1}`,
          })),
        ],
      })),
    [journey],
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Find a step"
      size="lg"
      returnFocus={false}
      onExitTransitionEnd={() => {
        const id = picked.current;
        picked.current = null;
        if (id) onPick(id);
      }}
    >
      <Select
        data-autofocus
        label="Step name or kind"
        searchable
        data={data}
        limit={50}
        dropdownOpened={opened}
        comboboxProps={{ withinPortal: false }}
        onChange={(value) => {
          if (!value) return;
          picked.current = value;
          onClose();
        }}
      />
    </Modal>
  );
}
