import { Anchor, Button, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { InlineTime } from '../../components/Timestamp';
import { integrationsQueryOptions } from './api';
import { FeatureGate } from './FeatureGate';

function Integrations() {
  const list = useQuery(integrationsQueryOptions());
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
          <Table.Th>Schedule</Table.Th>
          <Table.Th>Created</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.data.map((i) => (
          <Table.Tr key={i.id}>
            <Table.Td>
              <Anchor component={Link} to={`/data/sync/${i.id}`}>
                {i.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              {i.schedule_type === 'none' ? 'By hand' : `${i.schedule_type} ${i.schedule_option ?? ''} (${i.timezone})`}
            </Table.Td>
            <Table.Td>
              <InlineTime value={i.created_at} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Warehouse syncs (integrations) of the account. */
export function SyncListPage() {
  return (
    <>
      <PageHeader
        title="Warehouse sync"
        description="Copies of PostgreSQL warehouse tables, each table a bulk load session, run by hand or on a schedule."
        action={
          <Button component={Link} to="/data/sync/new">
            New sync
          </Button>
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
