import { ActionIcon, Badge, Menu, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment } from '@svc/contracts';
import { IconDots } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { Timestamp } from '../../components/Timestamp';
import { type journeysOf, useDeleteJourney, useDuplicateJourney } from './api';
import { statisticsQuery } from './engine/engineQueries';

export type JourneyRow = ReturnType<typeof journeysOf>[number] & {
  parent: ParentSegment;
  /** The folder below the parent segment, e.g. "Campaigns › Spring"; empty at the root. */
  place: string;
};

export interface JourneysTableProps {
  rows: JourneyRow[];
  /** Whether the caller has Full Control in the folder (rename, duplicate, delete). */
  canControl(folderId: string): boolean;
  onRename(row: JourneyRow): void;
}

/** Journeys with state, parent segment, update time and owner; actions where the caller has Full Control. */
export function JourneysTable({ rows, canControl, onRename }: JourneysTableProps) {
  const navigate = useNavigate();
  const duplicate = useDuplicateJourney();
  const remove = useDeleteJourney();
  const confirmDelete = (row: JourneyRow) =>
    modals.openConfirmModal({
      title: 'Delete journey',
      children: <Text size="sm">Delete "{row.name}" and its activations? This cannot be undone.</Text>,
      labels: { confirm: 'Delete journey', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(row.id, {
          onSuccess: () => notifications.show({ color: 'teal', message: `"${row.name}" was deleted.` }),
          onError: (e) => notifications.show({ color: 'red', title: 'Not deleted', message: e.message }),
        }),
    });
  const copy = (row: JourneyRow) =>
    duplicate.mutate(
      { id: row.id, name: `Copy of ${row.name}` },
      {
        onSuccess: (answer) => void navigate(`/journeys/${answer.data.id}`),
        onError: (e) => notifications.show({ color: 'red', title: 'Not duplicated', message: e.message }),
      },
    );

  return (
    <Table striped highlightOnHover aria-label="Journeys">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th>Parent segment</Table.Th>
          <Table.Th ta="right" title="Distinct profiles over the past 30 days">
            Entered
          </Table.Th>
          <Table.Th ta="right" title="Distinct profiles over the past 30 days">
            Reached goal
          </Table.Th>
          <Table.Th>Updated</Table.Th>
          <Table.Th>Owner</Table.Th>
          <Table.Th>
            <span className="sr-only" style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden' }}>
              Actions
            </span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>
              <Link to={`/journeys/${row.id}`}>{row.name || 'Unnamed journey'}</Link>
              {row.place && (
                <Text size="xs" c="dimmed">
                  {row.place}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <StateBadge state={row.state} paused={row.paused} />
            </Table.Td>
            <Table.Td>{row.parent.name}</Table.Td>
            <JourneyFigures journeyId={row.id} launched={row.state === 'launched'} />
            <Table.Td>{row.updatedAt ? <Timestamp value={row.updatedAt} /> : '—'}</Table.Td>
            <Table.Td>{row.owner ?? '—'}</Table.Td>
            <Table.Td>
              {canControl(row.folderId) && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" aria-label={`Actions for ${row.name}`}>
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {/* A launched journey keeps its attributes (the server answers 409), so only drafts are renamed. */}
                    {row.state !== 'launched' && <Menu.Item onClick={() => onRename(row)}>Rename</Menu.Item>}
                    <Menu.Item onClick={() => copy(row)}>Duplicate</Menu.Item>
                    <Menu.Item color="red" onClick={() => confirmDelete(row)}>
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The journey's state; the badge keeps its whole word however narrow the column gets ("LAU…" was unreadable). */
function StateBadge({ state, paused }: { state: string; paused: boolean }) {
  const [color, label] =
    state !== 'launched' ? ['gray', 'Draft'] : paused ? ['yellow', 'Paused'] : ['teal', 'Launched'];
  return (
    <Badge color={color} variant="light" style={{ minWidth: 'max-content' }}>
      {label}
    </Badge>
  );
}

const NO_WINDOW = {};

/** Entered and goal counts of a launched journey over the past 30 days (drafts have none). */
function JourneyFigures({ journeyId, launched }: { journeyId: string; launched: boolean }) {
  const figures = useQuery({ ...statisticsQuery(journeyId, NO_WINDOW), enabled: launched });
  const cell = (value: number | undefined) => (launched && value !== undefined ? value.toLocaleString('en') : '—');
  return (
    <>
      <Table.Td ta="right">{cell(figures.data?.entered)}</Table.Td>
      <Table.Td ta="right">{cell(figures.data?.goalReached)}</Table.Td>
    </>
  );
}
