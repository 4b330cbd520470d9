import { Alert, Anchor, Button, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { bulkImport } from './api';
import { errorRecordsAsJsonLines, saveFile } from './download';
import type { ColumnType } from './model/types';
import { PerformPanel } from './PerformPanel';
import { fixesText, keysLeftOutText } from './summaryText';
import { useFinish } from './useFinish';
import type { PrepareSummary } from './worker/prepare';

export interface FinishStepProps {
  session: string;
  database: string;
  table: string;
  /** The wizard's columns with their types: the ones the table lacks are added just before the commit. */
  columns: [string, ColumnType][];
  /** What the worker prepared: rows skipped and cells nulled by the user's fixes. */
  prepared: PrepareSummary;
  /** Keys found in the files that the user left out. */
  leftOut: string[];
  /** Called once the rows are committed (the stepper then marks every step complete). */
  onCommitted: () => void;
  onAnother: () => void;
}

const count = (n: number | null | undefined) => (n ?? 0).toLocaleString('en-US');

/** Table page of the data area (the data pages feature owns the route). */
const tablePath = (database: string, table: string) =>
  `/data/databases/${encodeURIComponent(database)}/tables/${encodeURIComponent(table)}`;

/** The query page with the table's database chosen and a query of its newest rows in the editor. */
const queryPath = (database: string, table: string) =>
  `/data/query?${new URLSearchParams({ database, table }).toString()}`;

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

function ErrorRecords({ session }: { session: string }) {
  const errorsDownload = useMutation({
    mutationFn: () => errorRecordsAsJsonLines(bulkImport.errorRecordsUrl(session)),
    onSuccess: (text) => saveFile(`${session}-error-records.jsonl`, text, 'application/x-ndjson'),
  });
  return (
    <Group gap="sm">
      <Button variant="default" size="xs" loading={errorsDownload.isPending} onClick={() => errorsDownload.mutate()}>
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
  );
}

/** Freeze, perform (a job, its progress shown as it runs), the valid and error counts, then commit or discard. */
export function FinishStep({
  session,
  database,
  table,
  columns,
  prepared,
  leftOut,
  onCommitted,
  onAnother,
}: FinishStepProps) {
  const { jobId, startedAt, perform, status, job, commit, discard } = useFinish(session, database, table, columns);
  const s = status.data;
  const jobStatus = job.data?.status;
  const failed = jobStatus === 'error' || jobStatus === 'killed';
  const error = perform.error ?? status.error ?? commit.error ?? discard.error;
  const committed = s?.status === 'committed';
  useEffect(() => {
    if (committed) onCommitted();
  }, [committed, onCommitted]);
  const discarded = discard.isSuccess;

  if (discarded) {
    return (
      <Alert color="gray" title="Import discarded">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            The bulk import session was deleted; nothing was imported into {database}.{table}.
          </Text>
          <Button size="xs" variant="default" onClick={onAnother}>
            Import other files
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack maw={760}>
      {error && <Alert color="red">{error.message}</Alert>}
      <Group gap="xs">
        {!s || s.status === 'performing' || (s.status === 'uploading' && !failed) ? <Loader size="xs" /> : null}
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
      {jobId !== null && startedAt !== null && !committed && (
        <PerformPanel key={jobId} job={job.data} startedAt={startedAt} />
      )}
      {failed && (
        <Alert color="red" title="The check failed">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {job.data?.debug.stderr || 'The perform job ended without success.'} Open the job for details. The
              uploaded parts are kept: run the check again, or delete the import.
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                variant="white"
                loading={perform.isPending}
                disabled={s?.status !== 'uploading'}
                onClick={() => perform.mutate()}
              >
                Run the check again
              </Button>
              <Button
                size="xs"
                variant="white"
                color="red"
                loading={discard.isPending}
                onClick={() => discard.mutate()}
              >
                Delete this import
              </Button>
            </Group>
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
      {s && (s.error_records ?? 0) > 0 && <ErrorRecords session={session} />}
      {s?.status === 'ready' && (
        <Group>
          <Button loading={commit.isPending} disabled={discard.isPending} onClick={() => commit.mutate()}>
            Commit {count(s.valid_records)} records
          </Button>
          <Button
            variant="default"
            color="red"
            loading={discard.isPending}
            disabled={commit.isPending}
            onClick={() => discard.mutate()}
          >
            Discard
          </Button>
          <Text size="sm" c="dimmed">
            The rows land in {database}.{table} only after the commit; discarding deletes the session.
          </Text>
        </Group>
      )}
      {s?.status === 'committing' && <Text>Committing…</Text>}
      {committed && (
        <Alert color="teal" title="Import complete">
          <Stack gap="xs" align="flex-start">
            <Text size="sm" aria-label="Rows imported">
              {count(s.valid_records)} records were added to {database}.{table}.
            </Text>
            <Text size="sm" aria-label="Import summary">
              {count(prepared.rejected)} rows rejected, {fixesText(prepared)}. {keysLeftOutText(leftOut)}.
            </Text>
            <Group>
              <Button component={Link} to={tablePath(database, table)}>
                Open {database}.{table}
              </Button>
              <Button component={Link} variant="light" to={queryPath(database, table)}>
                Query {table}
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
