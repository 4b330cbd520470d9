import { Group, Progress, Stack, Text } from '@mantine/core';
import type { JobDetail } from '@svc/contracts';
import { useEffect, useState } from 'react';
import { formatElapsed, lastPerformProgress } from './performProgress';

export interface PerformPanelProps {
  job: JobDetail | undefined;
  /** When the console started the perform (local clock, so the elapsed time needs no clock agreement). */
  startedAt: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const running = (job: JobDetail | undefined) => !job || job.status === 'queued' || job.status === 'running';

/** The perform job as it goes: parts checked of all, records so far, and the time it has taken. */
export function PerformPanel({ job, startedAt }: PerformPanelProps) {
  const [now, setNow] = useState(() => Date.now());
  const [endedAt, setEndedAt] = useState<number | null>(null);
  const live = running(job);
  useEffect(() => {
    if (!live) {
      setEndedAt((t) => t ?? Date.now());
      return;
    }
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [live]);

  const progress = lastPerformProgress(job?.debug.cmdout);
  const total = progress?.partsTotal ?? 0;
  const done = progress?.partsDone ?? 0;
  const elapsed = formatElapsed((endedAt ?? now) - startedAt);
  const value = total > 0 ? (done / total) * 100 : 0;
  return (
    <Stack gap={4} maw={640}>
      <Progress
        value={value}
        animated={live}
        striped={live}
        color={
          job?.status === 'success' ? 'teal' : job?.status === 'error' || job?.status === 'killed' ? 'red' : undefined
        }
        aria-label="Perform progress"
        aria-valuetext={`${done} of ${total} parts`}
      />
      <Group gap="lg">
        <Text size="sm" role="status" aria-label="Perform parts">
          {progress
            ? `${count(done)} of ${count(total)} parts checked`
            : job?.status === 'queued'
              ? 'Queued…'
              : 'Starting…'}
        </Text>
        <Text size="sm" c="dimmed" aria-label="Perform rows">
          {`${count(progress?.records ?? 0)} rows`}
        </Text>
        <Text size="sm" c="dimmed" aria-label="Perform elapsed">
          {elapsed}
        </Text>
      </Group>
    </Stack>
  );
}
