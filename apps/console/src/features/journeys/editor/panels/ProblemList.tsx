import { List, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCircleX } from '@tabler/icons-react';
import type { Problem } from '../model/problems';

export interface ProblemListProps {
  problems: Problem[];
  title: string;
  /** When given, each problem is a button that goes to its step or stage. */
  onPick?(problem: Problem): void;
}

/** Problems as the validator words them; red ones block saving, amber ones block launch. */
export function ProblemList({ problems, title, onPick }: ProblemListProps) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <List spacing={4} size="sm" listStyleType="none" aria-label={title}>
        {problems.map((p) => {
          const icon = p.blocksSave ? (
            <IconCircleX size={16} color="#e03131" aria-label="Blocks saving" />
          ) : (
            <IconAlertTriangle size={16} color="#f08c00" aria-label="Blocks launch" />
          );
          const body = (
            <span style={{ display: 'flex', gap: 6, alignItems: 'flex-start' }}>
              <span style={{ flex: 'none', marginTop: 2 }}>{icon}</span>
              <span>{p.message}</span>
            </span>
          );
          return (
            <List.Item key={`${p.code}@${p.path.text}`}>
              {onPick ? (
                <UnstyledButton fz="sm" onClick={() => onPick(p)} style={{ textAlign: 'left' }}>
                  {body}
                </UnstyledButton>
              ) : (
                body
              )}
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
