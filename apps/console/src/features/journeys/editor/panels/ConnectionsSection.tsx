import { Select, Stack, Text } from '@mantine/core';
import type { Step } from '@svc/journey';
import { stepExits } from '@svc/journey';
import { useEditor, useEditorStore } from '../EditorContext';
import { stepOptionLabel } from '../model/flow';

const STOP = '';

/** Where each path of a step leads: any other step of the stage (e.g. a merge), or nowhere yet. */
export function ConnectionsSection({ stageIndex, stepId, step }: { stageIndex: number; stepId: string; step: Step }) {
  const store = useEditorStore();
  const steps = useEditor((s) => s.journey.journeyStages[stageIndex]?.steps ?? {});
  const exits = stepExits(step);
  if (exits.length === 0) return null;
  const options = [
    { value: STOP, label: 'Nowhere yet (path stops)' },
    ...Object.entries(steps)
      .filter(([id]) => id !== stepId)
      .map(([id, other]) => ({
        value: id,
        label: stepOptionLabel(other),
      })),
  ];
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Connections
      </Text>
      {exits.map((exit) => (
        <Select
          key={exit.handle}
          label={exits.length > 1 ? `"${exit.label}" leads to` : 'Leads to'}
          data={options}
          value={exit.target ?? STOP}
          allowDeselect={false}
          searchable
          onChange={(value) =>
            store.getState().dispatch({
              type: 'connect',
              stageIndex,
              from: { stepId, slot: exit.slot },
              target: value ? value : null,
            })
          }
          comboboxProps={{ withinPortal: true }}
        />
      ))}
    </Stack>
  );
}
