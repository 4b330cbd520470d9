import { Anchor, Group, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { InlineTime } from '../../components/Timestamp';
import { formatCount, formatDuration } from '../data';
import { attemptQueryOptions, integrationQueryOptions } from './api';
import { FeatureGate } from './FeatureGate';
import { RunTables, runLabel } from './RunTables';
import { StatusBadge } from './StatusBadge';

/** One run of a sync: when and how it ran, and each table's rows, duration and error. */
export function RunPage() {
  const params = useParams();
  const id = params.dwhId ?? '';
  const attemptId = params.attemptId ?? '';
  const integration = useQuery(integrationQueryOptions(id));
  const attempt = useQuery(attemptQueryOptions(id, attemptId));
  if (attempt.isPending || integration.isPending) return <CenteredLoader label="Loading the run" />;
  const error = attempt.error ?? integration.error;
  if (error) {
    return (
      <QueryError
        title="The run could not be loaded"
        error={error}
        onRetry={() => {
          void attempt.refetch();
          void integration.refetch();
        }}
      />
    );
  }
  if (!attempt.data || !integration.data) return null;
  const a = attempt.data;
  const { item, configs } = integration.data;
  return (
    <FeatureGate>
      <PageHeader
        title={`Run ${a.attempt_id} of ${item.name}`}
        description={
          <Anchor component={Link} to={`/data/sync/${id}`}>
            Back to the sync
          </Anchor>
        }
      />
      <Paper withBorder p="md" radius="md">
        <Group gap="xs" mb="sm">
          <StatusBadge status={a.status} />
          <Text size="sm">
            {runLabel(a)}, started <InlineTime value={a.created_at} />
            {a.finished_at && (
              <>
                , ended <InlineTime value={a.finished_at} />
              </>
            )}
            ; {formatCount(a.records)} rows in {formatDuration(a.duration_seconds)}.
          </Text>
        </Group>
        <RunTables attempt={a} database={configs.output_config.database} />
      </Paper>
    </FeatureGate>
  );
}
