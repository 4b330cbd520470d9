import { Badge, Loader } from '@mantine/core';

const COLORS: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  success: 'teal',
  error: 'red',
  killed: 'orange',
};

export interface JobStatusBadgeProps {
  status: string;
}

/** A job's status as a coloured word; unfinished jobs show a spinner. */
export function JobStatusBadge({ status }: JobStatusBadgeProps) {
  const running = status === 'running' || status === 'queued';
  return (
    <Badge
      color={COLORS[status] ?? 'gray'}
      variant="light"
      leftSection={running ? <Loader size={10} color={COLORS[status]} aria-hidden /> : undefined}
    >
      {status}
    </Badge>
  );
}
