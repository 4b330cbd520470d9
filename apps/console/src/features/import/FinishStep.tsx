import { Alert, Anchor, Button, Group, Loader, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { bulkImport, jobQueryOptions, sessionQueryOptions } from './api';
import { errorRecordsAsJsonLines, saveFile } from './download';

export interface FinishStepProps {
  session: string;
  database: string;
  table: string;
  onAnother: () => void;
}

const count = (n: number | null | undefined) => (n ?? 0).toLocaleString('en-US');

/** Table page of the data area (the data pages feature owns the route). */
export const tablePath = (database: string, table: string) =>
  `/data/databases/${encodeURIComponent(database)}/tables/${encodeURIComponent(table)}`;

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="lg" aria-label={label}>
        {value}
      </Text>
    </Stack>
  );
}

/** Freeze, perform (a job, shown as it runs), the valid and error counts, then commit. */
export function FinishStep({ session, database, table, onAnother }: FinishStepProps) {
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const start = useMutation({
    mutationFn: async () => {
      await bulkImport.freeze(session);
      return bulkImport.perform(session);
    },
    onSuccess: (r) => setJobId(r.job_id),
  });
  const { mutate: startPerform, isIdle } = start;
  useEffect(() => {
    if (isIdle) startPerform();
  }, [isIdle, startPerform]);
  const status = useQuery({ ...sessionQueryOptions(session), enabled: jobId !== null });
  const job = useQuery({ ...jobQueryOptions(jobId ?? 0), enabled: jobId !== null });
  const commit = useMutation({
    mutationFn: () => bulkImport.commit(session),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const discard = useMutation({ mutationFn: () => bulkImport.remove(session) });
  const errorsDownload = useMutation({
    mutationFn: () => errorRecordsAsJsonLines(bulkImport.errorRecordsUrl(session)),
    onSuccess: (text) => saveFile(`${session}-error-records.jsonl`, text, 'application/x-ndjson'),
  });

  const s = status.data;
  const jobStatus = job.data?.status;
  const failed = jobStatus === 'error' || jobStatus === 'killed';
  const error = start.error ?? status.error ?? commit.error ?? discard.error;
  const committed = s?.status === 'committed';

  return (
    <Stack maw={760}>
      {error && <Alert color="red">{error.message}</Alert>}
      <Group gap="xs">
        {!s || s.status === 'performing' || s.status === 'uploading' ? <Loader size="xs" /> : null}
        <Text role="status">
          {jobId === null ? (
            'Freezing the upload and starting the check…'
          ) : (
            <>
              <Anchor component={Link} to={`/data/jobs/${jobId}`}>
                Job {jobId}
              </Anchor>
              {`: ${jobStatus ?? 'queued'}${s ? ` · session ${s.status}` : ''}`}
            </>
          )}
        </Text>
      </Group>
      {jobId !== null && !failed && s?.status === 'performing' && (
        <Progress value={100} animated aria-label="Perform job running" />
      )}
      {failed && (
        <Alert color="red" title="The check failed">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {job.data?.debug.stderr || 'The perform job ended without success.'} Open the job for details.
            </Text>
            {discard.isSuccess ? (
              <Text size="sm">The session was deleted; nothing was imported.</Text>
            ) : (
              <Button
                size="xs"
                variant="white"
                color="red"
                loading={discard.isPending}
                onClick={() => discard.mutate()}
              >
                Delete this import
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      {s && s.valid_records !== null && (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure label="Valid records" value={count(s.valid_records)} />
          <Figure label="Error records" value={count(s.error_records)} />
          <Figure label="Valid parts" value={count(s.valid_parts)} />
          <Figure label="Error parts" value={count(s.error_parts)} />
        </SimpleGrid>
      )}
      {s && (s.error_records ?? 0) > 0 && (
        <Group gap="sm">
          <Button
            variant="default"
            size="xs"
            loading={errorsDownload.isPending}
            onClick={() => errorsDownload.mutate()}
          >
            Download error records (JSON Lines)
          </Button>
          <Anchor size="xs" href={bulkImport.errorRecordsUrl(session)} download={`${session}-error-records.msgpack.gz`}>
            as msgpack.gz
          </Anchor>
          {errorsDownload.error && (
            <Text size="xs" c="red">
              {errorsDownload.error.message}
            </Text>
          )}
        </Group>
      )}
      {s?.status === 'ready' && (
        <Group>
          <Button loading={commit.isPending} onClick={() => commit.mutate()}>
            Commit {count(s.valid_records)} records
          </Button>
          <Text size="sm" c="dimmed">
            The rows land in {database}.{table} only after the commit.
          </Text>
        </Group>
      )}
      {s?.status === 'committing' && <Text>Committing…</Text>}
      {committed && (
        <Alert color="teal" title="Import complete">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {count(s.valid_records)} records were added to {database}.{table}.
            </Text>
            <Group>
              <Button component={Link} to={tablePath(database, table)}>
                Open {database}.{table}
              </Button>
              <Button variant="default" onClick={onAnother}>
                Import more files
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
