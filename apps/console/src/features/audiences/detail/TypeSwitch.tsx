import { Badge, Group, Stack, Switch, Text } from '@mantine/core';
import type { AudienceColumnType } from '@svc/contracts';
import { useId } from 'react';
import { typeToggle } from '../columnTyping';

export interface TypeSwitchProps {
  /** The column as people know it, e.g. "signup_time". */
  label: string;
  type: AudienceColumnType;
  sourceType: string | undefined;
  allColumns?: boolean;
  saving: boolean;
  /** Why the user may not change types here (View permission), or null. */
  blocked?: string | null;
  onChange: (type: AudienceColumnType) => void;
}

/** The column's type and the number ⇄ timestamp switch; where the rules forbid it, the switch is off and says why. */
export function TypeSwitch({
  label,
  type,
  sourceType,
  allColumns = false,
  saving,
  blocked = null,
  onChange,
}: TypeSwitchProps) {
  const rule = typeToggle(type, sourceType, allColumns);
  const toggle = blocked && rule.allowed ? { allowed: false, reason: blocked } : rule;
  const reasonId = useId();
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="nowrap">
        <Badge variant="light" color={type === 'timestamp' ? 'grape' : type === 'number' ? 'blue' : 'gray'} w={112}>
          {type}
        </Badge>
        <Switch
          aria-label={`${label} is a timestamp`}
          aria-describedby={toggle.reason ? reasonId : undefined}
          checked={type === 'timestamp'}
          disabled={!toggle.allowed || saving}
          onChange={(e) => onChange(e.currentTarget.checked ? 'timestamp' : 'number')}
          label="Timestamp"
        />
      </Group>
      {toggle.reason && (
        <Text id={reasonId} size="xs" c="dimmed" maw={360}>
          {toggle.reason}
        </Text>
      )}
    </Stack>
  );
}
