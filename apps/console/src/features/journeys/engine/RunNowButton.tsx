import { Button, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
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
          color: 'teal',
          title: 'The journey ran',
          message: `${summary.profiles.toLocaleString('en')} profiles looked at, ${summary.changed.toLocaleString('en')} moved, ${summary.queued.toLocaleString('en')} queued for activations.`,
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
