import { Badge } from '@mantine/core';
import type { ParentSegment } from '@svc/contracts';

export interface BuildStatusBadgeProps {
  status: ParentSegment['buildStatus'];
}

const LOOK = {
  queued: { color: 'gray', label: 'Queued' },
  running: { color: 'blue', label: 'Building' },
  success: { color: 'teal', label: 'Built' },
  error: { color: 'red', label: 'Failed' },
  killed: { color: 'orange', label: 'Stopped' },
} as const;

/** The state of the newest build of a parent segment's profile set. */
export function BuildStatusBadge({ status }: BuildStatusBadgeProps) {
  if (status === null) {
    return (
      <Badge variant="light" color="gray">
        Not built
      </Badge>
    );
  }
  const look = LOOK[status];
  return (
    <Badge variant="light" color={look.color}>
      {look.label}
    </Badge>
  );
}
