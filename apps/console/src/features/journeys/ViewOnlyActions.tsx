import { Button } from '@mantine/core';
import { BlockedAction } from '../../components/BlockedAction';

export interface ViewOnlyActionsProps {
  launched: boolean;
  paused: boolean;
}

const REASON =
  'You have View permission on this journey’s folder, so you cannot change, launch, pause or resume it. Ask an administrator for Full Control.';

/** The actions a user with View would look for, shown disabled with the reason, so they know before trying. */
export function ViewOnlyActions({ launched, paused }: ViewOnlyActionsProps) {
  if (launched) {
    return (
      <BlockedAction reason={REASON}>
        <Button variant="default">{paused ? 'Resume' : 'Pause'}</Button>
      </BlockedAction>
    );
  }
  return (
    <>
      <BlockedAction reason={REASON}>
        <Button variant="default">Save</Button>
      </BlockedAction>
      <BlockedAction reason={REASON}>
        <Button>Launch</Button>
      </BlockedAction>
    </>
  );
}
