import { Popover, Text } from '@mantine/core';
import { type ReactNode, type SyntheticEvent, useState } from 'react';
import { useEditor } from '../EditorContext';

export interface StageCriterionProps {
  stageIndex: number;
  /** "Entry criteria", "Milestone", "Exit criteria". */
  label: string;
  /** What the card shows. */
  summary: ReactNode;
  /** Plain text of `summary`, for the button's name. */
  summaryText: string;
  /** The side panel's field(s) for this criterion. */
  children: ReactNode;
}

// The popover is a React portal: its events would bubble (through React) to the node, selecting or moving it.
const stop = (event: SyntheticEvent) => event.stopPropagation();

/** One criterion on a stage card, edited in place: a button that opens the side panel's field in a popover. */
export function StageCriterion({ stageIndex, label, summary, summaryText, children }: StageCriterionProps) {
  const readOnly = useEditor((s) => s.readOnly);
  const [opened, setOpened] = useState(false);
  if (readOnly) return <dd>{summary}</dd>;
  return (
    <dd>
      <Popover
        opened={opened}
        onChange={setOpened}
        width={300}
        position="bottom-start"
        shadow="md"
        trapFocus
        withinPortal
      >
        <Popover.Target>
          <button
            type="button"
            // nodrag/nokey: a click or Enter here edits the criterion instead of dragging or selecting the node.
            className="jc-crit nodrag nopan nokey"
            aria-label={`${label} of stage ${stageIndex + 1}: ${summaryText}. Edit`}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={(event) => {
              event.stopPropagation();
              setOpened((o) => !o);
            }}
          >
            {summary}
          </button>
        </Popover.Target>
        <Popover.Dropdown
          role="dialog"
          aria-label={`${label} of stage ${stageIndex + 1}`}
          className="nodrag nopan nowheel"
          onClick={stop}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') stop(event);
          }}
          onPointerDown={stop}
          onDoubleClick={stop}
        >
          <Text size="xs" c="dimmed" mb={6}>
            Stage {stageIndex + 1}
          </Text>
          {children}
        </Popover.Dropdown>
      </Popover>
    </dd>
  );
}
