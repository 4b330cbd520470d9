import { ActionIcon, Button, Group, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ABTestStep } from '@svc/journey';
import { MAX_TEST_VARIANTS, variantLabel } from '@svc/journey';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useEditorStore, useEnvironment } from '../EditorContext';
import { PercentInput } from './PercentInput';

export interface ABTestFormProps {
  stageIndex: number;
  stepId: string;
  step: ABTestStep;
}

/** Variants (the first is the control), their shares, and the column that keeps assignments stable. */
export function ABTestForm({ stageIndex, stepId, step }: ABTestFormProps) {
  const store = useEditorStore();
  const { columns } = useEnvironment();
  const dispatch = store.getState().dispatch;
  const ref = { stageIndex, stepId };
  const sum = step.variants.reduce((n, v) => n + v.percentage, 0);
  const columnData = columns.map((c) => ({ value: c, label: c }));
  if (step.uniqueId && !columns.includes(step.uniqueId))
    columnData.push({ value: step.uniqueId, label: `${step.uniqueId} (unknown)` });
  return (
    <Stack gap="sm">
      <TextInput
        label="Name"
        value={step.name}
        onChange={(e) =>
          dispatch(
            { type: 'updateStep', ...ref, step: { ...step, name: e.currentTarget.value } },
            { coalesceKey: `${stepId}.name` },
          )
        }
      />
      <Select
        label="Unique ID column"
        description="Profiles are assigned by a stable hash of this column, so they keep their variant."
        data={columnData}
        value={step.uniqueId || null}
        searchable
        onChange={(value) => dispatch({ type: 'updateStep', ...ref, step: { ...step, uniqueId: value ?? '' } })}
        comboboxProps={{ withinPortal: true }}
      />
      <Switch
        label="Even split"
        checked={!step.customizedSplit}
        onChange={(e) => dispatch({ type: 'setEvenSplit', ...ref, even: e.currentTarget.checked })}
      />
      {step.variants.map((variant, index) => {
        const label = variantLabel(variant, index);
        // Both fields of a row name the variant by its place (Control, Variant A, …), as the canvas does.
        const slot = variantLabel({ ...variant, name: '' }, index);
        return (
          <Paper key={variant.id} withBorder p="xs" radius="md">
            <Group gap={6} wrap="nowrap" align="flex-end">
              <TextInput
                flex={1}
                label={`${slot} name`}
                value={variant.name}
                onChange={(e) =>
                  dispatch(
                    { type: 'updateVariant', ...ref, variantIndex: index, patch: { name: e.currentTarget.value } },
                    { coalesceKey: `${variant.id}.name` },
                  )
                }
              />
              <PercentInput
                label={`${slot} share`}
                disabled={!step.customizedSplit}
                value={variant.percentage}
                onChange={(percentage) =>
                  dispatch(
                    { type: 'updateVariant', ...ref, variantIndex: index, patch: { percentage } },
                    { coalesceKey: `${variant.id}.percentage` },
                  )
                }
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mb={6}
                aria-label={`Remove variant "${label}"`}
                disabled={index === 0}
                onClick={() => dispatch({ type: 'removeVariant', ...ref, variantIndex: index })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Paper>
        );
      })}
      <Text size="xs" c={sum === 100 ? 'dimmed' : 'red'}>
        Shares add up to {sum} %. The first variant is the control group: it gets nothing from this test.
      </Text>
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        disabled={step.variants.length - 1 >= MAX_TEST_VARIANTS}
        onClick={() => dispatch({ type: 'addVariant', ...ref })}
      >
        Add variant
      </Button>
    </Stack>
  );
}
