import { Alert, Code, Stack, Text } from '@mantine/core';
import type { JobDetail } from '@svc/contracts';
import { isRunning } from '../jobs/api';
import { JobResult } from '../results/JobResult';
import type { ErrorPosition } from './errorPosition';

export interface QueryOutcomeProps {
  job: JobDetail;
  position: ErrorPosition | null;
}

/** What a finished query gave: its rows, the engine's error with its place, or that it was killed. */
export function QueryOutcome({ job, position }: QueryOutcomeProps) {
  if (isRunning(job.status)) {
    return (
      <Text c="dimmed" size="sm">
        {job.status === 'queued' ? 'Waiting for a free query worker…' : 'Running… the rows appear here when it ends.'}
      </Text>
    );
  }
  if (job.status === 'success') return <JobResult job={job} />;
  if (job.status === 'killed') {
    return (
      <Alert color="orange" title="The query was stopped">
        {job.debug.stderr ?? 'Killed on request.'}
      </Alert>
    );
  }
  return (
    <Alert color="red" title="The query failed">
      <Stack gap={4}>
        <Code block data-testid="engine-error">
          {job.debug.stderr ?? 'The engine gave no reason.'}
        </Code>
        {position && (
          <Text size="sm">
            At line {position.line}, column {position.column} (underlined in the editor).
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
