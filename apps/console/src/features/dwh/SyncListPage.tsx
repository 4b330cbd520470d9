import { Anchor, Button, Group, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { formatCount } from '../data';
import { statusesQueryOptions } from './api';
import { FeatureGate } from './FeatureGate';
import { SyncState, scheduleText } from './StatusBadge';

function Integrations() {
  const list = useQuery(statusesQueryOptions());
  if (list.isPending) return <CenteredLoader label="Loading warehouse syncs" />;
  if (list.isError)
    return <QueryError title="The syncs could not be loaded" error={list.error} onRetry={() => list.refetch()} />;
  if (list.data.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        There are no warehouse syncs yet.
      </Text>
    );
  }
  return (
    <Table verticalSpacing="sm" highlightOnHover aria-label="Warehouse syncs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Last run</Table.Th>
          <Table.Th>Next run</Table.Th>
          <Table.Th>Rows moved</Table.Th>
          <Table.Th>Schedule</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.data.map((s) => (
          <Table.Tr key={s.dwh_id}>
            <Table.Td>
              <Anchor component={Link} to={`/data/sync/${s.dwh_id}`}>
                {s.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <SyncState status={s} />
            </Table.Td>
            <Table.Td>
              <Timestamp value={s.last_run?.created_at ?? null} empty="never" />
            </Table.Td>
            <Table.Td>
              <Timestamp
                value={s.next_run_at}
                empty={s.state === 'paused' ? 'paused' : s.schedule_type === 'none' ? 'by hand' : '—'}
              />
            </Table.Td>
            <Table.Td>
              {s.last_run ? formatCount(s.last_run.records) : '—'}
              <Text size="xs" c="dimmed">
                {formatCount(s.rows_moved)} in all
              </Text>
            </Table.Td>
            <Table.Td>{scheduleText(s)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Warehouse syncs (integrations) of the account, with their state, last and next run and rows moved. */
export function SyncListPage() {
  return (
    <>
      <PageHeader
        title="Warehouse sync"
        description="Copies of PostgreSQL warehouse tables, each table a bulk load session, run by hand or on a schedule."
        action={
          <Group>
            <Button component={Link} to="/data/sync/authentications" variant="default">
              Authentications
            </Button>
            <Button component={Link} to="/data/sync/new">
              New sync
            </Button>
          </Group>
        }
      />
      <FeatureGate>
        <Paper withBorder radius="md" p="xs">
          <Integrations />
        </Paper>
      </FeatureGate>
    </>
  );
}
