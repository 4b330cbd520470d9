import { ActionIcon, Button, Divider, Group, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { Criteria, ExitCriterion } from '@svc/journey';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEditor, useEditorStore } from '../EditorContext';
import type { EditorCommand } from '../model/commands';
import type { Problem } from '../model/problems';
import { SegmentPicker } from './fields';
import { ProblemList } from './ProblemList';

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
  const criteria = (c: Criteria | null, segmentId: string | null, name?: string): Criteria | null =>
    segmentId === null && !name
      ? null
      : { name: name ?? c?.name ?? '', segmentId, description: c?.description ?? null };
  const exits = stage.exitCriterias ?? [];
  const setExit = (index: number, next: ExitCriterion) =>
    patch({ exitCriterias: exits.map((e, i) => (i === index ? next : e)) }, `stage${stageIndex}.exit${index}`);
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
      <SegmentPicker
        label="Entry criteria"
        description="Profiles of this segment enter the stage."
        value={stage.entryCriteria?.segmentId}
        onChange={(segmentId) =>
          patch({ entryCriteria: { name: stage.entryCriteria?.name ?? '', segmentId, description: null } })
        }
      />
      <SegmentPicker
        label="Milestone"
        description="Reaching it moves a profile to the next stage."
        value={stage.milestone?.segmentId}
        onChange={(segmentId) => patch({ milestone: criteria(stage.milestone, segmentId) })}
      />
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          Exit criteria
        </Text>
        {exits.map((exit, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: exit criteria have no id of their own
          <Paper key={`exit-${index}`} withBorder p="xs" radius="md">
            <Stack gap={6}>
              <Group gap={4} align="flex-end" wrap="nowrap">
                <TextInput
                  flex={1}
                  label={`Exit criterion ${index + 1} name`}
                  value={exit.name}
                  onChange={(e) => setExit(index, { ...exit, name: e.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mb={6}
                  aria-label={`Remove exit criterion ${index + 1}`}
                  onClick={() => patch({ exitCriterias: exits.filter((_, i) => i !== index) })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              <SegmentPicker
                label={`Exit criterion ${index + 1}: leave when in segment`}
                value={exit.segmentId}
                onChange={(segmentId) => setExit(index, { ...exit, segmentId, exitAfter: null, unit: null })}
              />
              <NumberInput
                label={`Exit criterion ${index + 1}: or leave after (days)`}
                min={1}
                allowDecimal={false}
                value={exit.exitAfter ?? ''}
                onChange={(value) =>
                  setExit(index, {
                    ...exit,
                    segmentId: null,
                    exitAfter: typeof value === 'number' ? value : null,
                    unit: typeof value === 'number' ? 'days' : null,
                  })
                }
              />
            </Stack>
          </Paper>
        ))}
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => patch({ exitCriterias: [...exits, { name: '', segmentId: null }] })}
        >
          Add exit criterion
        </Button>
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
