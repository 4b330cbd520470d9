import { Alert, Anchor, Breadcrumbs, Button, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { JobDetail } from '@svc/contracts';
import { IconPlayerStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone } from '../../import';
import { JobResult } from '../results/JobResult';
import { Figure } from '../shared/Figure';
import { formatBytes, formatCount, formatSeconds, v3TimeToIso } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { DATA_PATHS, databasePath, queryPath } from '../shared/paths';
import { isRunning, jobQueryOptions, useKillJob } from './api';

/** One job: its query, timings, records, result and debug output; kill while it runs. */
export function JobPage() {
  const id = useParams().jobId ?? '';
  const job = useQuery(jobQueryOptions(id));
  const kill = useKillJob();
  const running = isRunning(job.data?.status);

  return (
    <ImportDropZone>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={DATA_PATHS.jobs} size="sm">
          Jobs
        </Anchor>
        <Text size="sm">Job {id}</Text>
      </Breadcrumbs>
      <PageHeader
        title={`Job ${id}`}
        description={
          job.data
            ? `${job.data.type} job by ${job.data.user_name || 'a program'}${
                job.data.schedule_name
                  ? `, a run of schedule ${job.data.schedule_name} for ${job.data.scheduled_at}`
                  : ''
              }`
            : undefined
        }
        action={
          <Group gap="sm">
            {job.data && <JobStatusBadge status={job.data.status} queuePosition={job.data.queue_position} />}
            {job.data?.query && job.data.database && (
              <Button variant="default" component={Link} to={queryPath({ database: job.data.database, job: id })}>
                Open in the editor
              </Button>
            )}
            {running && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={16} />}
                loading={kill.isPending}
                onClick={() => kill.mutate(id)}
              >
                Kill job
              </Button>
            )}
          </Group>
        }
      />
      {kill.error && (
        <Alert color="red" mb="md" title="The job could not be killed">
          {kill.error.message}
        </Alert>
      )}
      {job.isPending ? (
        <CenteredLoader label="Loading the job" />
      ) : job.isError ? (
        <QueryError title={`Job ${id} could not be loaded`} error={job.error} onRetry={() => job.refetch()} />
      ) : (
        <JobDetails job={job.data} />
      )}
    </ImportDropZone>
  );
}

function JobDetails({ job }: { job: JobDetail }) {
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <Figure label="Database">
          {job.database ? (
            <Anchor component={Link} to={databasePath(job.database)}>
              {job.database}
            </Anchor>
          ) : (
            '—'
          )}
        </Figure>
        <Figure label="Created">
          <Timestamp value={v3TimeToIso(job.created_at)} />
        </Figure>
        <Figure label="Started">
          <Timestamp value={v3TimeToIso(job.start_at)} empty="not yet" />
        </Figure>
        <Figure label="Ended">
          <Timestamp value={v3TimeToIso(job.end_at)} empty="not yet" />
        </Figure>
        <Figure label="Duration">{formatSeconds(job.duration)}</Figure>
        <Figure label="Records">
          {formatCount(job.num_records)}
          {job.result_size !== null && (
            <Text size="xs" c="dimmed">
              {formatBytes(job.result_size)} compressed
            </Text>
          )}
        </Figure>
      </SimpleGrid>
      {job.query && (
        <Section title="Query">
          <Code block>{job.query}</Code>
        </Section>
      )}
      {job.result && (
        <Section title="Result output">
          <Text size="sm" data-testid="result-output">
            {job.status === 'success'
              ? `Rows ${/^https?:\/\//i.test(job.result) ? 'sent' : 'written'} to `
              : job.status === 'error'
                ? 'Not written to '
                : 'Rows go to '}
            <Code>{job.result}</Code>
            {job.status === 'success'
              ? '.'
              : job.status === 'error'
                ? ': the job failed.'
                : ' when the query succeeds.'}
          </Text>
        </Section>
      )}
      {job.status === 'success' && job.hive_result_schema && (
        <Section title="Result">
          <JobResult job={job} height={360} />
        </Section>
      )}
      {job.status === 'error' && (
        <Alert color="red" title="The job failed">
          {job.debug.stderr ?? 'No reason was recorded.'}
        </Alert>
      )}
      <Section title="Debug output">
        <Stack gap="xs">
          <Text size="sm" fw={600}>
            Output
          </Text>
          <Code block aria-label="Job output">
            {job.debug.cmdout || '(none)'}
          </Code>
          <Text size="sm" fw={600}>
            Errors
          </Text>
          <Code block aria-label="Job errors">
            {job.debug.stderr || '(none)'}
          </Code>
        </Stack>
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </section>
  );
}
