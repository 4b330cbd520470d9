import { Anchor, Group, Text } from '@mantine/core';
import type { Job } from '@svc/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { isRunning } from '../jobs/api';
import { formatDuration, v3TimeToMs } from '../shared/format';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { jobPath } from '../shared/paths';

export interface RunStatusProps {
  job: Job;
  /** When this page issued the job (browser clock), for an elapsed time finer than the server's seconds. */
  issuedAt?: number | undefined;
}

/** "Running · 3.2 s" while a job runs, "success · 1.0 s" after; links to the job page. */
export function RunStatus({ job, issuedAt }: RunStatusProps) {
  const running = isRunning(job.status);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [running]);

  const start = issuedAt ?? v3TimeToMs(job.created_at) ?? now;
  const elapsed = running ? (now - start) / 1000 : job.duration;
  return (
    <Group gap="xs" wrap="nowrap">
      {/* Only the status is announced; the ticking time would flood a screen reader. */}
      <span role="status" aria-label={`Job ${job.job_id} ${job.status}`}>
        <JobStatusBadge status={job.status} />
      </span>
      <Text size="sm" c="dimmed" ff="monospace" data-testid="elapsed">
        {running ? formatDuration(elapsed) : elapsed === 0 ? 'under 1 s' : formatDuration(elapsed)}
      </Text>
      <Anchor component={Link} to={jobPath(job.job_id)} size="sm">
        Job {job.job_id}
      </Anchor>
    </Group>
  );
}
