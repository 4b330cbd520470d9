import { Alert, Button, Group, Progress, Radio, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { rejectionsCsv, saveFile } from './download';
import { leftOutKeys } from './model/match';
import { PartsTable } from './PartsTable';
import { fixesText, keysLeftOutText, leftOutDownloadText } from './summaryText';
import { useUpload } from './useUpload';
import { useWizard } from './wizardStore';
import type { PrepareSummary } from './worker/prepare';
import { startPrepare } from './workerClient';

export interface UploadStepProps {
  onUploaded: (session: string, summary: PrepareSummary) => void;
  onRestart: () => void;
  /** Back to the target step; offered only while nothing is on the server. */
  onBack: () => void;
}

type Policy = 'skip' | 'block';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Checks and encodes every row in the worker, shows what would be rejected, then uploads the parts.
 * Nothing reaches the server before the user has seen the rejected rows.
 */
export function UploadStep({ onUploaded, onRestart, onBack }: UploadStepProps) {
  const { files, columns, time, database, table, partRows } = useWizard();
  const leftOut = leftOutKeys(columns, time);
  const upload = useUpload(database, table);
  const [progress, setProgress] = useState({ rows: 0, rejected: 0, done: 0, total: 1 });
  const [summary, setSummary] = useState<PrepareSummary | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [policy, setPolicy] = useState<Policy>('skip');
  const { addPart } = upload;

  useEffect(() => {
    const request = {
      files: files.flatMap((f) => (f.analysis ? [{ file: f.file, settings: f.analysis.settings }] : [])),
      columns,
      time,
      importTime: Math.floor(Date.now() / 1000),
      partRows,
      partBytes: 16 * 1024 * 1024,
      keepRejected: 1000,
    };
    const job = startPrepare(request, (event) => {
      if (event.type === 'progress')
        setProgress({
          rows: event.rows,
          rejected: event.rejected,
          done: event.bytesDone,
          total: event.bytesTotal || 1,
        });
      else if (event.type === 'part') addPart(event.part);
      else if (event.type === 'done') setSummary(event.summary);
      else setFailure(event.message);
    });
    return () => job.stop();
  }, [files, columns, time, partRows, addPart]);

  const { phase, parts } = upload;
  useEffect(() => {
    if (phase === 'uploaded' && upload.session && summary) onUploaded(upload.session, summary);
  }, [phase, upload.session, summary, onUploaded]);

  // Closing the tab mid-upload would leave a half-filled session: ask first.
  useEffect(() => {
    if (phase !== 'uploading') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [phase]);

  if (failure) {
    return (
      <Alert color="red" title="The files could not be prepared">
        {failure}
      </Alert>
    );
  }
  if (!summary) {
    return (
      <Stack maw={640}>
        <Text size="sm">Checking and encoding every row…</Text>
        <Progress value={(progress.done / progress.total) * 100} aria-label="Preparing the rows" animated />
        <Text size="sm" c="dimmed" role="status">
          {count(progress.rows)} rows read, {count(progress.rejected)} rejected so far
        </Text>
      </Stack>
    );
  }
  const blocked = policy === 'block' && summary.rejected > 0;
  const total = parts.reduce((n, p) => n + p.size, 0);
  const sent = parts.reduce((n, p) => n + p.sent, 0);
  return (
    <Stack>
      <Text role="status" fw={500}>
        {count(summary.rows)} rows read: {count(summary.accepted)} to import, {count(summary.rejected)} rejected
        {summary.skipped > 0 ? `, ${count(summary.skipped)} skipped by your fixes` : ''}
        {` (${summary.parts} part${summary.parts === 1 ? '' : 's'}, prepared in ${(summary.millis / 1000).toFixed(1)} s)`}
      </Text>
      <Text size="sm" aria-label="Fixes and keys left out">
        {fixesText(summary)} (your fixes for cells that would not convert) · {keysLeftOutText(leftOut)}
      </Text>
      {summary.rejected + summary.skipped > 0 && (
        <Stack gap="xs">
          <Table aria-label="Rejected rows" maw={900} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Row</Table.Th>
                <Table.Th>Left out as</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {summary.kept.slice(0, 5).map((r) => (
                <Table.Tr key={`${r.file}:${r.row}`}>
                  <Table.Td>{r.file}</Table.Td>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td>{r.skipped ? 'skipped' : 'rejected'}</Table.Td>
                  <Table.Td>{r.reason}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => saveFile('rejected-rows.csv', rejectionsCsv(summary.kept), 'text/csv')}
            >
              {leftOutDownloadText(summary)}
            </Button>
          </Group>
          <Radio.Group label="Rejected rows" value={policy} onChange={(v) => setPolicy(v as Policy)}>
            <Stack gap={4} mt={4}>
              <Radio value="skip" label="Leave them out and import the rest" disabled={phase !== 'idle'} />
              <Radio value="block" label="Import nothing until the file is fixed" disabled={phase !== 'idle'} />
            </Stack>
          </Radio.Group>
        </Stack>
      )}
      {upload.error && <Alert color="red">{upload.error}</Alert>}
      {phase === 'cancelled' ? (
        <Alert color="gray" title="Upload cancelled">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">The bulk import session was deleted; nothing was imported.</Text>
            <Button size="xs" variant="default" onClick={onRestart}>
              Start again
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          {phase !== 'idle' && (
            <Stack gap={4}>
              <Text size="sm">
                Uploaded {count(parts.filter((p) => p.status === 'done').length)} of {count(parts.length)} parts
              </Text>
              <Progress value={total ? (sent / total) * 100 : 0} aria-label="Upload of all parts" />
              <PartsTable parts={parts} onRetry={upload.retryPart} retryable={phase === 'failed'} />
            </Stack>
          )}
          <Group>
            {phase === 'idle' && (
              <Button variant="default" onClick={onBack}>
                Back
              </Button>
            )}
            {phase === 'idle' && (
              <Button disabled={blocked || summary.accepted === 0} onClick={() => void upload.start()}>
                Upload {count(summary.accepted)} rows
              </Button>
            )}
            {phase === 'failed' && upload.session && <Button onClick={upload.retryFailed}>Retry failed parts</Button>}
            {(phase === 'uploading' || phase === 'failed' || phase === 'cancelling') && (
              <Button color="red" variant="light" loading={phase === 'cancelling'} onClick={() => void upload.cancel()}>
                Cancel upload
              </Button>
            )}
          </Group>
          {blocked && (
            <Text size="sm" c="red">
              Fix the rejected rows in the file, or choose to leave them out.
            </Text>
          )}
          {summary.accepted === 0 && (
            <Text size="sm" c="red">
              No row can be imported: check the time and column steps.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
