import { Button, Group, Menu, Stack, Tabs, Text } from '@mantine/core';
import type { Job } from '@svc/contracts';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { jobResultQueryOptions, RESULT_PREVIEW_ROWS, resultDownloadUrl } from '../jobs/api';
import { formatBytes, formatCount, resultColumns } from '../shared/format';
import { ResultChart } from './ResultChart';
import { ResultGrid } from './ResultGrid';

export interface JobResultProps {
  job: Job;
  height?: number;
}

/** The rows of a successful job in a virtualised grid or as a chart, with downloads of the whole result. */
export function JobResult({ job, height }: JobResultProps) {
  const result = useQuery(jobResultQueryOptions(job.job_id));
  const columns = resultColumns(job.hive_result_schema);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {formatCount(job.num_records)} {job.num_records === 1 ? 'row' : 'rows'} · {formatBytes(job.result_size)}{' '}
          compressed
          {result.data?.truncated ? ` · showing the first ${formatCount(RESULT_PREVIEW_ROWS)}; download for all` : ''}
        </Text>
        <ResultDownloads jobId={job.job_id} />
      </Group>
      {result.isPending ? (
        <CenteredLoader label="Loading the result" />
      ) : result.isError ? (
        <QueryError title="The result could not be loaded" error={result.error} onRetry={() => result.refetch()} />
      ) : columns.length === 0 ? (
        <Text c="dimmed">The query returned no columns.</Text>
      ) : (
        <Tabs defaultValue="rows" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="rows">Rows</Tabs.Tab>
            <Tabs.Tab value="chart">Chart</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="rows" pt="xs">
            <ResultGrid
              columns={columns}
              rows={result.data.rows}
              label={`Result of job ${job.job_id}`}
              height={height}
            />
          </Tabs.Panel>
          <Tabs.Panel value="chart" pt="xs">
            <ResultChart
              jobId={job.job_id}
              columns={columns}
              wholeResult={result.data.truncated ? null : result.data.rows}
            />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}

const FORMATS = [
  { format: 'csv', label: 'CSV', extension: 'csv' },
  { format: 'json', label: 'JSON Lines', extension: 'jsonl' },
  { format: 'tsv', label: 'TSV', extension: 'tsv' },
  { format: 'msgpack.gz', label: 'MessagePack (gzip)', extension: 'msgpack.gz' },
] as const;

/** Links straight to the result route: the browser streams the file with the session cookie. */
function ResultDownloads({ jobId }: { jobId: string }) {
  return (
    <Group gap="xs">
      <Button
        component="a"
        href={resultDownloadUrl(jobId, 'csv')}
        download={`job-${jobId}.csv`}
        size="xs"
        variant="default"
        leftSection={<IconDownload size={14} />}
      >
        Download CSV
      </Button>
      <Button
        component="a"
        href={resultDownloadUrl(jobId, 'json')}
        download={`job-${jobId}.jsonl`}
        size="xs"
        variant="default"
        leftSection={<IconDownload size={14} />}
      >
        Download JSON Lines
      </Button>
      <Menu position="bottom-end">
        <Menu.Target>
          <Button
            size="xs"
            variant="subtle"
            rightSection={<IconChevronDown size={14} />}
            aria-label="More download formats"
          >
            More
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {FORMATS.map((f) => (
            <Menu.Item
              key={f.format}
              component="a"
              href={resultDownloadUrl(jobId, f.format)}
              download={`job-${jobId}.${f.extension}`}
            >
              {f.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
