import { Tooltip } from '@mantine/core';
import { cloneElement, type MouseEvent, type ReactElement } from 'react';

export interface BlockedActionProps {
  /** Why the user cannot take this action; null when they can. */
  reason: string | null;
  /** The button, action icon or link. */
  children: ReactElement<Record<string, unknown>>;
}

const prevent = (event: MouseEvent) => {
  event.preventDefault();
  event.stopPropagation();
};

/**
 * An action the user cannot take is shown disabled with the reason on hover and focus, instead of being
 * refused when they try. `data-disabled` rather than `disabled`: a disabled button gets no hover or focus,
 * so it could not show the tooltip.
 */
export function BlockedAction({ reason, children }: BlockedActionProps) {
  if (reason === null) return children;
  return (
    <Tooltip label={reason} multiline w={300} withinPortal>
      {cloneElement(children, {
        'data-disabled': true,
        'aria-disabled': true,
        // Screen readers read the reason with the action's name.
        'aria-description': reason,
        onClick: prevent,
      })}
    </Tooltip>
  );
}
