import { Anchor, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { IntegrationStatus } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { InlineTime, Timestamp } from '../../components/Timestamp';
import { formatCount, formatDuration } from '../data';
import { attemptsQueryOptions, integrationQueryOptions, statusQueryOptions } from './api';
import { FeatureGate } from './FeatureGate';
import { RunTables, runLabel } from './RunTables';
import { StatusBadge, SyncState, scheduleText } from './StatusBadge';
import { SyncActions } from './SyncActions';

function Runs({ id, database }: { id: string; database: string }) {
  const attempts = useQuery(attemptsQueryOptions(id));
  if (attempts.isPending) return <CenteredLoader label="Loading runs" />;
  if (attempts.isError)
    return (
      <QueryError title="The runs could not be loaded" error={attempts.error} onRetry={() => attempts.refetch()} />
    );
  if (attempts.data.length === 0) return <Text c="dimmed">No runs yet.</Text>;
  return (
    <Stack gap="md">
      {attempts.data.map((a) => (
        <Paper key={a.attempt_id} withBorder p="sm" radius="md" aria-label={`Run ${a.attempt_id}`} component="section">
          <Group gap="xs" mb="xs">
            <Anchor component={Link} to={`/data/sync/${id}/runs/${a.attempt_id}`} fw={600}>
              Run {a.attempt_id}
            </Anchor>
            <StatusBadge status={a.status} />
            <Text size="sm" c="dimmed">
              {runLabel(a)}, <InlineTime value={a.created_at} />; {formatCount(a.records)} rows in{' '}
              {formatDuration(a.duration_seconds)}
            </Text>
          </Group>
          <RunTables attempt={a} database={database} />
        </Paper>
      ))}
    </Stack>
  );
}

function Summary({ status: s }: { status: IntegrationStatus | undefined }) {
  if (!s) return null;
  return (
    <Table aria-label="Sync status" w="auto" mb="lg" withRowBorders={false} verticalSpacing={2}>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th>Status</Table.Th>
          <Table.Td>
            <SyncState status={s} />
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Next run</Table.Th>
          <Table.Td>
            <Timestamp value={s.next_run_at} empty={s.state === 'paused' ? 'paused' : 'only by hand'} />
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th>Rows moved</Table.Th>
          <Table.Td>{formatCount(s.rows_moved)}</Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/** One warehouse sync: its state and actions, and its runs with each table's status, rows, duration and error. */
export function SyncPage() {
  const id = useParams().dwhId ?? '';
  const integration = useQuery(integrationQueryOptions(id));
  const status = useQuery(statusQueryOptions(id));
  if (integration.isPending) return <CenteredLoader label="Loading the sync" />;
  if (integration.isError) {
    return (
      <QueryError
        title="The sync could not be loaded"
        error={integration.error}
        onRetry={() => integration.refetch()}
      />
    );
  }
  const { item, configs } = integration.data;
  const database = configs.output_config.database;
  return (
    <FeatureGate>
      <PageHeader
        title={item.name}
        description={`Into ${database}; ${scheduleText({ ...item, schedule_option: item.schedule_option ?? '' })}.`}
        action={
          <SyncActions
            id={id}
            name={item.name}
            status={status.data}
            tables={configs.advanced_configs.map((a) => `${database}.${a.target_table}`)}
          />
        }
      />
      <Summary status={status.data} />
      <Title order={2} size="h4" mb="xs">
        Runs
      </Title>
      <Runs id={id} database={database} />
    </FeatureGate>
  );
}
