import { Alert, Anchor, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { InlineTime } from '../../components/Timestamp';
import { attemptsQueryOptions, integrationQueryOptions, useRunIntegration } from './api';
import { FeatureGate } from './FeatureGate';
import { StatusBadge } from './StatusBadge';

const enc = encodeURIComponent;

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
          <Group justify="space-between" mb="xs">
            <Group gap="xs">
              <Text fw={600}>Run {a.attempt_id}</Text>
              <StatusBadge status={a.status} />
              <Text size="sm" c="dimmed">
                {a.trigger === 'schedule' ? 'scheduled' : 'by hand'}, <InlineTime value={a.created_at} />
              </Text>
            </Group>
          </Group>
          <Table aria-label={`Tables of run ${a.attempt_id}`} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Table</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Rows</Table.Th>
                <Table.Th>Bulk load</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {a.tables.map((t) => (
                <Table.Tr key={t.job_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/data/databases/${enc(database)}/tables/${enc(t.target_table)}`}>
                      {database}.{t.target_table}
                    </Anchor>
                    {t.error && (
                      <Text size="sm" c="red">
                        {t.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={t.status} />
                  </Table.Td>
                  <Table.Td>{t.records === null ? '—' : t.records.toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/data/bulk-loads/${enc(t.bulk_load_name)}`}>
                      <Code>{t.bulk_load_name}</Code>
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
    </Stack>
  );
}

/** One warehouse sync: its tables, a run button, and its runs with each table's status, rows and error. */
export function SyncPage() {
  const id = useParams().dwhId ?? '';
  const integration = useQuery(integrationQueryOptions(id));
  const run = useRunIntegration(id);
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
        description={`Into ${database}; ${item.schedule_type === 'none' ? 'runs by hand' : `${item.schedule_type} ${item.schedule_option ?? ''} (${item.timezone})`}.`}
        action={
          <Button loading={run.isPending} onClick={() => run.mutate()}>
            Run now
          </Button>
        }
      />
      {run.isError && (
        <Alert color="red" title="The run did not start" mb="md">
          {run.error.message}
        </Alert>
      )}
      <Title order={2} size="h4" mb="xs">
        Runs
      </Title>
      <Runs id={id} database={database} />
    </FeatureGate>
  );
}
