import { ActionIcon, Button, Group, NumberInput, Paper, Stack, TextInput } from '@mantine/core';
import type { Criteria, ExitCriterion, Stage } from '@svc/journey';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEditor, useEditorStore } from '../EditorContext';
import type { EditorCommand } from '../model/commands';
import { SegmentPicker } from './fields';

type StagePatch = Extract<EditorCommand, { type: 'updateStage' }>['patch'];

/** The stage and an `updateStage` dispatcher (typing in one field coalesces into one undo step). */
function useStage(stageIndex: number) {
  const stage = useEditor((s) => s.journey.journeyStages[stageIndex]) as Stage | undefined;
  const store = useEditorStore();
  const patch = (p: StagePatch, key?: string) =>
    store.getState().dispatch({ type: 'updateStage', stageIndex, patch: p }, key ? { coalesceKey: key } : {});
  return { stage, patch };
}

const criteria = (c: Criteria | null, segmentId: string | null): Criteria | null =>
  segmentId === null && !c?.name ? null : { name: c?.name ?? '', segmentId, description: c?.description ?? null };

export interface StageFieldProps {
  stageIndex: number;
  /** Focus the picker when shown (in the stage card's popover). */
  autoFocus?: boolean;
}

export function EntryCriteriaField({ stageIndex, autoFocus }: StageFieldProps) {
  const { stage, patch } = useStage(stageIndex);
  if (!stage) return null;
  return (
    <SegmentPicker
      label="Entry criteria"
      description="Profiles of this segment enter the stage."
      autoFocus={autoFocus}
      value={stage.entryCriteria?.segmentId}
      onChange={(segmentId) =>
        patch({ entryCriteria: { name: stage.entryCriteria?.name ?? '', segmentId, description: null } })
      }
    />
  );
}

export function MilestoneField({ stageIndex, autoFocus }: StageFieldProps) {
  const { stage, patch } = useStage(stageIndex);
  if (!stage) return null;
  return (
    <SegmentPicker
      label="Milestone"
      description="Reaching it moves a profile to the next stage."
      autoFocus={autoFocus}
      value={stage.milestone?.segmentId}
      onChange={(segmentId) => patch({ milestone: criteria(stage.milestone, segmentId) })}
    />
  );
}

/** Each exit criterion: a name, and a segment or a number of days; add and remove. */
export function ExitCriteriaFields({ stageIndex }: StageFieldProps) {
  const { stage, patch } = useStage(stageIndex);
  if (!stage) return null;
  const exits = stage.exitCriterias ?? [];
  const setExit = (index: number, next: ExitCriterion) =>
    patch({ exitCriterias: exits.map((e, i) => (i === index ? next : e)) }, `stage${stageIndex}.exit${index}`);
  return (
    <Stack gap={6}>
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
  );
}
