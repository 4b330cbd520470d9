import { Anchor, Group, Paper, Table, Text } from '@mantine/core';
import type { BulkLoadSession } from '@svc/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone } from '../../import';
import { unixToIso } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { bulkLoadPath, jobPath, tablePath } from '../shared/paths';
import { bulkLoadJobsQueryOptions, bulkLoadsQueryOptions } from './api';
import { scheduleText, sourceType } from './schedule';

/** Bulk load sessions: what each loads from, on which schedule, into which table, and how its last run went. */
export function BulkLoadsPage() {
  const sessions = useQuery(bulkLoadsQueryOptions());
  return (
    <ImportDropZone>
      <PageHeader
        title="Bulk loads"
        description="Sessions that load data from an outside source into a table, on a schedule or on demand."
      />
      <Paper withBorder radius="md" p="xs">
        {sessions.isPending ? (
          <CenteredLoader label="Loading bulk loads" />
        ) : sessions.isError ? (
          <QueryError
            title="The bulk loads could not be loaded"
            error={sessions.error}
            onRetry={() => sessions.refetch()}
          />
        ) : sessions.data.length === 0 ? (
          <Text c="dimmed" py="xl" ta="center">
            There are no bulk load sessions. Programs create them with POST /v3/bulk_loads.
          </Text>
        ) : (
          <SessionsTable sessions={sessions.data} />
        )}
      </Paper>
    </ImportDropZone>
  );
}

function SessionsTable({ sessions }: { sessions: BulkLoadSession[] }) {
  const jobs = useQueries({ queries: sessions.map((s) => bulkLoadJobsQueryOptions(s.name)) });
  return (
    <Table.ScrollContainer minWidth={860} type="native">
      <Table verticalSpacing="sm" highlightOnHover aria-label="Bulk loads">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Session</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Schedule</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Last job</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sessions.map((session, i) => {
            const list = jobs[i];
            const last = list?.data?.[0];
            return (
              <Table.Tr key={session.name}>
                <Table.Td>
                  <Anchor component={Link} to={bulkLoadPath(session.name)} fw={500}>
                    {session.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{sourceType(session)}</Table.Td>
                <Table.Td ff="monospace" fz="sm">
                  {scheduleText(session)}
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={tablePath(session.database, session.table)} size="sm">
                    {session.database}.{session.table}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {list?.isPending ? (
                    <Text size="sm" c="dimmed">
                      …
                    </Text>
                  ) : last ? (
                    <Group gap="xs" wrap="nowrap">
                      <Anchor component={Link} to={jobPath(last.job_id)} size="sm">
                        {last.job_id}
                      </Anchor>
                      <JobStatusBadge status={last.status} />
                      <Timestamp value={unixToIso(last.end_at ?? last.start_at ?? last.created_at)} />
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      never run
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
