import { Button, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { JourneyRunSummary } from '@svc/contracts';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useId } from 'react';
import { useRunJourney } from './engineQueries';

export interface RunNowButtonProps {
  journeyId: string;
  launched: boolean;
  paused: boolean;
}

/** Why a run is not possible now, or null when it is. */
export function runBlockedReason(launched: boolean, paused: boolean): string | null {
  if (!launched) return 'Launch the journey before running it.';
  if (paused) return 'The journey is paused, so nothing moves; resume it to run it.';
  return null;
}

const n = (value: number) => value.toLocaleString('en');
const profiles = (value: number) => `${n(value)} ${value === 1 ? 'profile' : 'profiles'}`;

/** What a run did, in words: who moved, what was sent to activations, and what still waits. */
export function runOutcomeText(summary: JourneyRunSummary['data']): string {
  const { delivered, failed, waiting, error } = summary.deliveries;
  // A run reads only the profiles that may move (decision 0040): say how many of the parent segment that was.
  const of = summary.looked === summary.profiles ? '' : ` of ${n(summary.profiles)} in the parent segment`;
  const parts = [`${profiles(summary.looked)} looked at${of}, ${n(summary.changed)} moved.`];
  if (delivered > 0) parts.push(`${profiles(delivered)} sent to activations.`);
  if (failed > 0)
    parts.push(
      `${profiles(failed)} could not be sent (${error ?? 'see Deliveries'}); tried again in a minute or more.`,
    );
  if (waiting > 0) parts.push(`${profiles(waiting)} wait for their activation’s schedule.`);
  if (summary.queued === 0 && delivered === 0 && failed === 0 && waiting === 0)
    parts.push('Nothing to send to activations.');
  return parts.join(' ');
}

/**
 * Runs the engine for this journey at once (the schedule does it every minute), then refreshes every
 * figure. Shown to Full Control users; disabled, with the reason, for drafts and paused journeys.
 */
export function RunNowButton({ journeyId, launched, paused }: RunNowButtonProps) {
  const run = useRunJourney(journeyId);
  const reason = runBlockedReason(launched, paused);
  const reasonId = useId();
  const onRun = () =>
    run.mutate(undefined, {
      onSuccess: (summary) =>
        notifications.show({
          title: 'The journey ran',
          color: summary.deliveries.failed > 0 ? 'orange' : 'teal',
          message: runOutcomeText(summary),
        }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'The journey did not run', message: error.message }),
    });
  return (
    <>
      <Tooltip label={reason ?? 'Move profiles through the journey now'} withArrow>
        <Button
          variant="default"
          leftSection={<IconPlayerPlay size={16} />}
          loading={run.isPending}
          // aria-disabled (not disabled) keeps the tooltip with the reason reachable by mouse and keyboard.
          aria-disabled={reason !== null}
          data-disabled={reason !== null || undefined}
          aria-describedby={reason === null ? undefined : reasonId}
          onClick={(event) => {
            if (reason !== null) event.preventDefault();
            else onRun();
          }}
        >
          Run now
        </Button>
      </Tooltip>
      {reason !== null && <VisuallyHidden id={reasonId}>{reason}</VisuallyHidden>}
    </>
  );
}
