import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  success: 'teal',
  error: 'red',
  killed: 'orange',
};

/** A run's or a table's status as a coloured word. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {status}
    </Badge>
  );
}
