import { Alert, Anchor, Badge, Button, Code, Group, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Schedule } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { databasePath, jobPath, schedulePath } from '../shared/paths';
import {
  lastRunQueryOptions,
  schedulesQueryOptions,
  useDeleteSchedule,
  useRunScheduleNow,
  useUpdateSchedule,
} from './api';
import { ScheduleModal } from './ScheduleModal';

function LastRun({ name }: { name: string }) {
  const run = useQuery(lastRunQueryOptions(name));
  if (run.isPending)
    return (
      <Text size="sm" c="dimmed">
        …
      </Text>
    );
  if (run.isError || !run.data)
    return (
      <Text size="sm" c="dimmed">
        never
      </Text>
    );
  return (
    <Group gap="xs" wrap="nowrap">
      <JobStatusBadge status={run.data.status} />
      <Anchor component={Link} to={jobPath(run.data.job_id)} size="sm">
        Job {run.data.job_id}
      </Anchor>
      <Text size="xs" c="dimmed">
        for {run.data.scheduled_at}
      </Text>
    </Group>
  );
}

function Row({ schedule }: { schedule: Schedule }) {
  const runNow = useRunScheduleNow();
  const remove = useDeleteSchedule();
  const pause = useUpdateSchedule();
  const [editing, setEditing] = useState(false);
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete scheduled query',
      children: (
        <Text size="sm">
          Delete the schedule <strong>{schedule.name}</strong>? Its past runs stay in the job list.
        </Text>
      ),
      labels: { confirm: 'Delete schedule', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(schedule.name),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={schedulePath(schedule.name)} fw={500} aria-label={`Runs of ${schedule.name}`}>
          {schedule.name}
        </Anchor>
        {schedule.paused && (
          <Badge color="yellow" variant="light" ml="xs">
            paused
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {schedule.cron ? (
          <Code>{schedule.cron}</Code>
        ) : (
          <Text size="sm" c="dimmed">
            on demand
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {schedule.timezone}
          {schedule.delay > 0 ? `, ${schedule.delay} s delay` : ''}
          {schedule.retry_limit > 0 ? `, ${schedule.retry_limit} retries` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={databasePath(schedule.database)} size="sm">
          {schedule.database}
        </Anchor>
        <Text size="xs" c="dimmed">
          {schedule.type}
          {schedule.result ? ` → ${schedule.result}` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Timestamp value={schedule.next_time} empty={schedule.paused ? 'paused' : '—'} />
      </Table.Td>
      <Table.Td>
        <LastRun name={schedule.name} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button
            size="compact-sm"
            variant="default"
            loading={runNow.isPending}
            onClick={() => runNow.mutate(schedule.name)}
            aria-label={`Run ${schedule.name} now`}
          >
            Run now
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            loading={pause.isPending}
            onClick={() => pause.mutate({ name: schedule.name, paused: !schedule.paused })}
            aria-label={`${schedule.paused ? 'Resume' : 'Pause'} ${schedule.name}`}
          >
            {schedule.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => setEditing(true)}
            aria-label={`Edit ${schedule.name}`}
          >
            Edit
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={confirmDelete}
            aria-label={`Delete ${schedule.name}`}
          >
            Delete
          </Button>
        </Group>
        {(runNow.error ?? remove.error ?? pause.error) && (
          <Text size="xs" c="red" role="alert">
            {(runNow.error ?? remove.error ?? pause.error)?.message}
          </Text>
        )}
        {editing && (
          <ScheduleModal schedule={schedule} onClose={() => setEditing(false)} onDone={() => setEditing(false)} />
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Scheduled queries: when each runs next, how its last run went (linking to the job); run now, delete. */
export function SchedulesPage() {
  const schedules = useQuery(schedulesQueryOptions());
  return (
    <>
      <PageHeader
        title="Scheduled queries"
        description="Queries that run on a cron (or on demand); each run is a job. Schedule one from the Query editor, with td sched:create or the /v3/schedule API."
      />
      <Paper withBorder radius="md" p="xs">
        {schedules.isPending ? (
          <CenteredLoader label="Loading scheduled queries" />
        ) : schedules.isError ? (
          <QueryError
            title="The scheduled queries could not be loaded"
            error={schedules.error}
            onRetry={() => schedules.refetch()}
          />
        ) : schedules.data.length === 0 ? (
          <Alert color="gray" variant="light">
            No scheduled queries yet.
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={900} type="native">
            <Table verticalSpacing="sm" aria-label="Scheduled queries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Schedule</Table.Th>
                  <Table.Th>Database</Table.Th>
                  <Table.Th>Next run</Table.Th>
                  <Table.Th>Last run</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {schedules.data.map((s) => (
                  <Row key={s.name} schedule={s} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </>
  );
}
