import { Anchor, Breadcrumbs, Code, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { BulkLoadJob } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone } from '../../import';
import { Figure } from '../shared/Figure';
import { formatCount, formatDuration, formatSeconds, unixToIso } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { DATA_PATHS, jobPath, tablePath } from '../shared/paths';
import { bulkLoadJobsQueryOptions, bulkLoadQueryOptions } from './api';
import { jobSeconds, scheduleText, sourceType } from './schedule';

/** One bulk load session: its settings, its configuration (credentials masked by the server), its jobs. */
export function BulkLoadPage() {
  const name = useParams().name ?? '';
  const session = useQuery(bulkLoadQueryOptions(name));
  const jobs = useQuery(bulkLoadJobsQueryOptions(name));

  return (
    <ImportDropZone>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={DATA_PATHS.bulkLoads} size="sm">
          Bulk loads
        </Anchor>
        <Text size="sm">{name}</Text>
      </Breadcrumbs>
      <PageHeader title={name} description="A bulk load session and the jobs it ran." />
      {session.isPending ? (
        <CenteredLoader label="Loading the session" />
      ) : session.isError ? (
        <QueryError
          title={`The session ${name} could not be loaded`}
          error={session.error}
          onRetry={() => session.refetch()}
        />
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Figure label="Source">{sourceType(session.data)}</Figure>
            <Figure label="Schedule">{scheduleText(session.data)}</Figure>
            <Figure label="Target">
              <Anchor component={Link} to={tablePath(session.data.database, session.data.table)}>
                {session.data.database}.{session.data.table}
              </Anchor>
            </Figure>
            <Figure label="Delay">{formatDuration(session.data.delay)}</Figure>
          </SimpleGrid>
          <section aria-label="Configuration">
            <Title order={2} size="h4" mb="xs">
              Configuration
            </Title>
            <Text size="sm" c="dimmed" mb="xs">
              Credentials are masked; they are never sent to the browser.
            </Text>
            <Code block aria-label="Session configuration">
              {JSON.stringify(session.data.config, null, 2)}
            </Code>
          </section>
          <section aria-label="Jobs of this session">
            <Title order={2} size="h4" mb="xs">
              Jobs
            </Title>
            <Paper withBorder radius="md" p="xs">
              {jobs.isPending ? (
                <CenteredLoader label="Loading the jobs" />
              ) : jobs.isError ? (
                <QueryError title="The jobs could not be loaded" error={jobs.error} onRetry={() => jobs.refetch()} />
              ) : (
                <SessionJobs jobs={jobs.data} />
              )}
            </Paper>
          </section>
        </Stack>
      )}
    </ImportDropZone>
  );
}

function SessionJobs({ jobs }: { jobs: BulkLoadJob[] }) {
  if (jobs.length === 0) {
    return (
      <Text c="dimmed" py="lg" ta="center">
        This session has not run yet.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table verticalSpacing="sm" aria-label="Session jobs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Job</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            <Table.Th ta="right">Duration</Table.Th>
            <Table.Th>Started</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr key={job.job_id}>
              <Table.Td>
                <Anchor component={Link} to={jobPath(job.job_id)}>
                  {job.job_id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <JobStatusBadge status={job.status} />
              </Table.Td>
              <Table.Td ta="right">{formatCount(job.records)}</Table.Td>
              <Table.Td ta="right">{formatSeconds(jobSeconds(job))}</Table.Td>
              <Table.Td>
                <Timestamp value={unixToIso(job.start_at)} empty="not yet" />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
