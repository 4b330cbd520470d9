import { ActionIcon, Button, Group, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { DecisionPointStep } from '@svc/journey';
import { branchLabel, MAX_BRANCHES } from '@svc/journey';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEditorStore } from '../EditorContext';
import { SegmentPicker } from './fields';

export interface DecisionFormProps {
  stageIndex: number;
  stepId: string;
  step: DecisionPointStep;
}

/** Paths of a decision point, in the order profiles are tested (first match wins). */
export function DecisionForm({ stageIndex, stepId, step }: DecisionFormProps) {
  const store = useEditorStore();
  const dispatch = store.getState().dispatch;
  const ref = { stageIndex, stepId };
  return (
    <Stack gap="sm">
      <TextInput
        label="Name"
        value={step.name ?? ''}
        onChange={(e) =>
          dispatch(
            { type: 'updateStep', ...ref, step: { ...step, name: e.currentTarget.value } },
            { coalesceKey: `${stepId}.name` },
          )
        }
      />
      <Text size="xs" c="dimmed">
        A profile follows the first path whose segment it is in, top to bottom.
      </Text>
      {step.branches.map((branch, index) => {
        const label = branchLabel(branch, index);
        return (
          <Paper key={branch.id} withBorder p="xs" radius="md">
            <Stack gap={6}>
              <Group gap={4} wrap="nowrap">
                <TextInput
                  flex={1}
                  label={`Path ${index + 1} name`}
                  value={branch.name ?? ''}
                  onChange={(e) =>
                    dispatch(
                      { type: 'updateBranch', ...ref, branchIndex: index, patch: { name: e.currentTarget.value } },
                      { coalesceKey: `${branch.id}.name` },
                    )
                  }
                />
                <ActionIcon
                  variant="subtle"
                  mt={22}
                  aria-label={`Move path "${label}" up`}
                  disabled={index === 0}
                  onClick={() => dispatch({ type: 'moveBranch', ...ref, from: index, to: index - 1 })}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  mt={22}
                  aria-label={`Move path "${label}" down`}
                  disabled={index === step.branches.length - 1}
                  onClick={() => dispatch({ type: 'moveBranch', ...ref, from: index, to: index + 1 })}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={22}
                  aria-label={`Remove path "${label}"`}
                  onClick={() => dispatch({ type: 'removeBranch', ...ref, branchIndex: index })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              <Switch
                label="Excluded profiles (everyone matching no other path)"
                checked={branch.excludedPath}
                onChange={(e) =>
                  dispatch({
                    type: 'updateBranch',
                    ...ref,
                    branchIndex: index,
                    patch: { excludedPath: e.currentTarget.checked },
                  })
                }
              />
              {!branch.excludedPath && (
                <SegmentPicker
                  label={`Path ${index + 1} segment`}
                  value={branch.segmentId}
                  onChange={(segmentId) =>
                    dispatch({ type: 'updateBranch', ...ref, branchIndex: index, patch: { segmentId } })
                  }
                />
              )}
            </Stack>
          </Paper>
        );
      })}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        disabled={step.branches.length >= MAX_BRANCHES}
        onClick={() => dispatch({ type: 'addBranch', ...ref })}
      >
        Add path
      </Button>
    </Stack>
  );
}
