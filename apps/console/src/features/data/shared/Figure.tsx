import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface FigureProps {
  label: string;
  children: ReactNode;
}

/** One labelled figure in a row of cards (records, size, started, …). */
export function Figure({ label, children }: FigureProps) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text component="div" fw={500}>
        {children}
      </Text>
    </Paper>
  );
}
