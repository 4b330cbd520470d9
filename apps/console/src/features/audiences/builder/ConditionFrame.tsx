import { ActionIcon, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface ConditionFrameProps {
  /** e.g. "Condition 2.1": names the group for assistive technology and tests. */
  label: string;
  kind: string;
  exclude: boolean;
  onExclude: (exclude: boolean) => void;
  onRemove: () => void;
  children: ReactNode;
}

/** The box around one condition: what it is, Exclude, and Remove. */
export function ConditionFrame({ label, kind, exclude, onExclude, onRemove, children }: ConditionFrameProps) {
  return (
    <Paper withBorder radius="sm" p="sm" role="group" aria-label={label} bg={exclude ? 'red.0' : undefined}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {label} · {kind}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Checkbox
              size="xs"
              label="Exclude"
              checked={exclude}
              onChange={(e) => onExclude(e.currentTarget.checked)}
            />
            <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${label}`} onClick={onRemove}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
