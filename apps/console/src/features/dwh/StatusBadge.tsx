import { Badge, Group, Text } from '@mantine/core';
import type { IntegrationStatus } from '@svc/contracts';

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

/** "daily 10:00 (Asia/Tokyo)", or "By hand". */
export function scheduleText(s: Pick<IntegrationStatus, 'schedule_type' | 'schedule_option' | 'timezone'>): string {
  return s.schedule_type === 'none' ? 'By hand' : `${s.schedule_type} ${s.schedule_option} (${s.timezone})`.trim();
}

/** Paused, or the latest run's status. */
export function SyncState({ status }: { status: IntegrationStatus }) {
  return (
    <Group gap={6}>
      {status.state === 'paused' && (
        <Badge color="yellow" variant="light">
          paused
        </Badge>
      )}
      {status.last_run ? (
        <StatusBadge status={status.last_run.status} />
      ) : (
        <Text size="sm" c="dimmed">
          not run yet
        </Text>
      )}
    </Group>
  );
}
