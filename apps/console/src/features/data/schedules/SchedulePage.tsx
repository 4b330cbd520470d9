import { Alert, Anchor, Code, Group, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { formatDuration } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { DATA_PATHS, jobPath } from '../shared/paths';
import { historyQueryOptions, schedulesQueryOptions } from './api';

/** One scheduled query: its settings and the history of its runs, newest first, each linking to its job. */
export function SchedulePage() {
  const name = useParams().name ?? '';
  const schedule = useQuery({ ...schedulesQueryOptions(), select: (all) => all.find((s) => s.name === name) });
  const history = useQuery(historyQueryOptions(name));
  const s = schedule.data;
  return (
    <>
      <PageHeader
        title={name}
        description={
          s
            ? `${s.type} on ${s.database}; ${s.cron ? `runs ${s.cron} (${s.timezone})` : 'runs only when run by hand'}${s.paused ? ', paused' : ''}.`
            : undefined
        }
      />
      <Group mb="sm">
        <Anchor component={Link} to={DATA_PATHS.schedules} size="sm">
          All scheduled queries
        </Anchor>
      </Group>
      {s && (
        <Code block mb="md">
          {s.query}
        </Code>
      )}
      <Paper withBorder radius="md" p="xs">
        {history.isPending ? (
          <CenteredLoader label="Loading the runs" />
        ) : history.isError ? (
          <QueryError title="The runs could not be loaded" error={history.error} onRetry={() => history.refetch()} />
        ) : history.data.history.length === 0 ? (
          <Alert color="gray" variant="light">
            No runs yet.
          </Alert>
        ) : (
          <Table verticalSpacing="xs" aria-label="Runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Run for</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Duration</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.data.history.map((j) => (
                <Table.Tr key={j.job_id}>
                  <Table.Td>
                    <Anchor component={Link} to={jobPath(j.job_id)} size="sm">
                      Job {j.job_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <JobStatusBadge status={j.status} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{j.scheduled_at}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{j.start_at || '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{formatDuration(j.duration)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </>
  );
}
