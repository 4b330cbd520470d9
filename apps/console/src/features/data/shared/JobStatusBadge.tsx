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
  /** A queued job's place in the fair order of the job slots (1 starts next). */
  queuePosition?: number | null;
}

/** A job's status as a coloured word; unfinished jobs show a spinner. */
export function JobStatusBadge({ status, queuePosition }: JobStatusBadgeProps) {
  const running = status === 'running' || status === 'queued';
  return (
    <Badge
      color={COLORS[status] ?? 'gray'}
      variant="light"
      leftSection={running ? <Loader size={10} color={COLORS[status]} aria-hidden /> : undefined}
    >
      {status === 'queued' && queuePosition ? `queued · ${ordinal(queuePosition)} in line` : status}
    </Badge>
  );
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}
