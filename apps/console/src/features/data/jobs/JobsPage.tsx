import { Anchor, Group, Pagination, Paper, Progress, Select, Stack, Table, Text } from '@mantine/core';
import { type JobStatus, jobStatus } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { meQueryOptions } from '../../auth';
import { ImportDropZone } from '../../import';
import { databasesQueryOptions } from '../databases/api';
import { formatCount, formatSeconds, v3TimeToIso } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { databasePath, jobPath } from '../shared/paths';
import { JOBS_PER_PAGE, type JobFilter, jobsQueryOptions } from './api';
import { jobTypeOptions } from './jobTypes';

const parseStatus = (value: string | null): JobStatus | undefined =>
  jobStatus.safeParse(value).success ? (value as JobStatus) : undefined;

/** Every job of the account, newest first, filtered by status, type, database and user; refreshed while open. */
export function JobsPage() {
  const [params, setParams] = useSearchParams();
  const filter: JobFilter = {
    status: parseStatus(params.get('status')),
    type: params.get('type') ?? undefined,
    database: params.get('database') ?? undefined,
    user: params.get('user') ?? undefined,
    page: Math.max(0, Number(params.get('page') ?? '1') - 1) || 0,
  };
  const jobs = useQuery(jobsQueryOptions(filter));
  const databases = useQuery(databasesQueryOptions());
  const me = useQuery(meQueryOptions()).data?.name;
  const users = [
    ...new Set([me, filter.user, ...(jobs.data?.jobs ?? []).map((j) => j.user_name)].filter((u): u is string => !!u)),
  ].sort();

  const setFilter = (name: 'status' | 'type' | 'database' | 'user', value: string | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    });
  const pages = jobs.data ? Math.max(1, Math.ceil(jobs.data.count / JOBS_PER_PAGE)) : 1;

  return (
    <ImportDropZone>
      <PageHeader
        title="Jobs"
        description="Queries and imports, newest first. Statuses update while this page is open."
      />
      <Group mb="md" gap="sm" align="flex-end">
        <Select
          label="Status"
          data={jobStatus.options}
          value={filter.status ?? null}
          onChange={(v) => setFilter('status', v)}
          clearable
          w={170}
        />
        <Select
          label="Type"
          data={jobTypeOptions([filter.type, ...(jobs.data?.jobs ?? []).map((j) => j.type)])}
          value={filter.type ?? null}
          onChange={(v) => setFilter('type', v)}
          clearable
          w={190}
        />
        <Select
          label="Database"
          data={(databases.data ?? []).map((d) => d.name)}
          value={filter.database ?? null}
          onChange={(v) => setFilter('database', v)}
          clearable
          searchable
          w={220}
        />
        <Select
          label="User"
          data={users}
          value={filter.user ?? null}
          onChange={(v) => setFilter('user', v)}
          clearable
          searchable
          w={200}
        />
        {jobs.data && (
          <Text size="sm" c="dimmed" pb={8} aria-live="polite">
            {formatCount(jobs.data.count)} {jobs.data.count === 1 ? 'job' : 'jobs'}
          </Text>
        )}
      </Group>
      <Paper withBorder radius="md" p="xs">
        {jobs.isPending ? (
          <CenteredLoader label="Loading jobs" />
        ) : jobs.isError ? (
          <QueryError title="The jobs could not be loaded" error={jobs.error} onRetry={() => jobs.refetch()} />
        ) : jobs.data.jobs.length === 0 ? (
          <Text c="dimmed" py="xl" ta="center">
            No jobs match. Run a query or import a file, and its job appears here.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={900} type="native">
            <Table verticalSpacing="sm" highlightOnHover aria-label="Jobs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Job</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Database</Table.Th>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Query</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th ta="right">Duration</Table.Th>
                  <Table.Th ta="right">Records</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {jobs.data.jobs.map((job) => (
                  <Table.Tr key={job.job_id}>
                    <Table.Td>
                      <Anchor component={Link} to={jobPath(job.job_id)} fw={500}>
                        {job.job_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <JobStatusBadge status={job.status} queuePosition={job.queue_position} />
                    </Table.Td>
                    <Table.Td>
                      {job.type}
                      {job.schedule_name && (
                        <Text size="xs" c="dimmed" title={`Scheduled for ${job.scheduled_at}`}>
                          Schedule {job.schedule_name}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {job.database ? (
                        <Anchor component={Link} to={databasePath(job.database)} size="sm">
                          {job.database}
                        </Anchor>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      {job.user_name || (
                        <Text c="dimmed" span size="sm">
                          a program
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td maw={360}>
                      <Text size="xs" ff="monospace" lineClamp={2} title={job.query ?? undefined}>
                        {job.query ?? ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Timestamp value={v3TimeToIso(job.created_at)} />
                    </Table.Td>
                    <Table.Td ta="right">
                      {job.status === 'running' ? (
                        <Stack gap={2} align="flex-end">
                          {formatSeconds(job.duration)}
                          <Progress
                            value={100}
                            animated
                            striped
                            size="xs"
                            w={64}
                            aria-label={`Job ${job.job_id} running for ${formatSeconds(job.duration)}`}
                          />
                        </Stack>
                      ) : (
                        formatSeconds(job.duration)
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(job.num_records)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination
            total={pages}
            value={filter.page + 1}
            onChange={(page) =>
              setParams((p) => {
                const next = new URLSearchParams(p);
                next.set('page', String(page));
                return next;
              })
            }
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      )}
    </ImportDropZone>
  );
}
