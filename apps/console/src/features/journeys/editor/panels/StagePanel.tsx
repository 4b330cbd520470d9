import { ActionIcon, Button, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useEditor, useEditorStore } from '../EditorContext';
import type { EditorCommand } from '../model/commands';
import type { Problem } from '../model/problems';
import { ProblemList } from './ProblemList';
import { EntryCriteriaField, ExitCriteriaFields, MilestoneField } from './StageCriteriaFields';

const NONE: Problem[] = [];

type StagePatch = Extract<EditorCommand, { type: 'updateStage' }>['patch'];

/** A stage's name, entry criteria, milestone and exit criteria. */
export function StagePanel({ stageIndex }: { stageIndex: number }) {
  const stage = useEditor((s) => s.journey.journeyStages[stageIndex]);
  const count = useEditor((s) => s.journey.journeyStages.length);
  const problems = useEditor((s) => s.problems.byStage.get(stageIndex) ?? NONE);
  const store = useEditorStore();
  if (!stage) return null;
  const dispatch = store.getState().dispatch;
  const patch = (p: StagePatch, key?: string) =>
    dispatch({ type: 'updateStage', stageIndex, patch: p }, key ? { coalesceKey: key } : {});
  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        Stage {stageIndex + 1}
      </Title>
      <TextInput
        label="Stage name"
        value={stage.name}
        onChange={(e) => patch({ name: e.currentTarget.value }, `stage${stageIndex}.name`)}
      />
      <EntryCriteriaField stageIndex={stageIndex} />
      <MilestoneField stageIndex={stageIndex} />
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          Exit criteria
        </Text>
        <ExitCriteriaFields stageIndex={stageIndex} />
      </Stack>
      {problems.length > 0 && <ProblemList problems={problems} title="Problems of this stage" />}
      <Divider />
      <Group gap="xs">
        <ActionIcon
          variant="default"
          aria-label="Move stage up"
          disabled={stageIndex === 0}
          onClick={() => dispatch({ type: 'moveStage', from: stageIndex, to: stageIndex - 1 })}
        >
          <IconArrowUp size={16} />
        </ActionIcon>
        <ActionIcon
          variant="default"
          aria-label="Move stage down"
          disabled={stageIndex === count - 1}
          onClick={() => dispatch({ type: 'moveStage', from: stageIndex, to: stageIndex + 1 })}
        >
          <IconArrowDown size={16} />
        </ActionIcon>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          onClick={() => dispatch({ type: 'removeStage', stageIndex })}
        >
          Delete stage
        </Button>
      </Group>
    </Stack>
  );
}
