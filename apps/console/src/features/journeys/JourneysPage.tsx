import { ActionIcon, Badge, Button, Group, Menu, NavLink, Paper, Table, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment } from '@svc/contracts';
import { IconDots, IconFolder, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import {
  folderQuery,
  journeysOf,
  parentSegmentsQuery,
  permissionsQuery,
  useDeleteJourney,
  useDuplicateJourney,
} from './api';
import { CreateJourneyModal } from './CreateJourneyModal';
import { RenameJourneyModal } from './RenameJourneyModal';

type Row = ReturnType<typeof journeysOf>[number] & { parent: ParentSegment };

/** `/journeys`: every journey by parent segment and folder, with state; create, rename, duplicate, delete. */
export function JourneysPage() {
  const parents = useQuery(parentSegmentsQuery());
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Row | null>(null);
  const navigate = useNavigate();
  const listings = useQueries({ queries: (parents.data ?? []).map((p) => folderQuery(p.rootFolderId)) });
  const rows: Row[] = useMemo(
    () =>
      (parents.data ?? []).flatMap((parent, i) =>
        journeysOf(listings[i]?.data?.data ?? []).map((j) => ({ ...j, parent })),
      ),
    [parents.data, listings],
  );
  const folderIds = [...new Set(rows.map((r) => r.folderId))];
  const permissions = useQueries({ queries: folderIds.map((id) => permissionsQuery(id)) });
  const canControl = (folderId: string) =>
    permissions[folderIds.indexOf(folderId)]?.data?.callerPermission === 'full_control';
  const duplicate = useDuplicateJourney();
  const remove = useDeleteJourney();

  if (parents.isPending) return <CenteredLoader label="Loading journeys" />;
  if (parents.error) return <QueryError title="Journeys could not be loaded" error={parents.error} />;

  const needle = search.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!needle || r.name.toLowerCase().includes(needle)) &&
      (folder === null || r.folderId === folder || r.parent.rootFolderId === folder),
  );
  const confirmDelete = (row: Row) =>
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

  return (
    <>
      <PageHeader
        title="Journeys"
        description="Design, launch and run customer journeys: stages, waits, decision points, A/B tests and activations."
        action={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setCreating(true)}
            disabled={(parents.data ?? []).length === 0}
          >
            Create journey
          </Button>
        }
      />
      {(parents.data ?? []).length === 0 && (
        <Text c="dimmed">Journeys belong to a parent segment. Create a parent segment first.</Text>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: '240px minmax(0, 1fr)', gap: 16 }}>
        <Paper withBorder p="xs" radius="md" component="nav" aria-label="Folders">
          <NavLink label="All journeys" active={folder === null} onClick={() => setFolder(null)} />
          {(parents.data ?? []).map((parent, i) => {
            const folders = (listings[i]?.data?.data ?? []).filter((e) => e.type === 'folder-segment');
            return (
              <NavLink
                key={parent.id}
                label={parent.name}
                leftSection={<IconFolder size={16} />}
                active={folder === parent.rootFolderId}
                onClick={() => setFolder(parent.rootFolderId)}
                defaultOpened
              >
                {folders.map((f) => (
                  <NavLink
                    key={f.id}
                    label={String(f.attributes.name ?? f.id)}
                    leftSection={<IconFolder size={14} />}
                    active={folder === f.id}
                    onClick={() => setFolder(f.id)}
                  />
                ))}
              </NavLink>
            );
          })}
        </Paper>
        <div>
          <TextInput
            mb="sm"
            label="Search journeys by name"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Table striped highlightOnHover aria-label="Journeys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Parent segment</Table.Th>
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
              {shown.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>
                    <Link to={`/journeys/${row.id}`}>{row.name || 'Unnamed journey'}</Link>
                    {row.folderName && (
                      <Text size="xs" c="dimmed">
                        {row.folderName}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <StateBadge state={row.state} paused={row.paused} />
                  </Table.Td>
                  <Table.Td>{row.parent.name}</Table.Td>
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
                          <Menu.Item onClick={() => setRenaming(row)}>Rename</Menu.Item>
                          <Menu.Item
                            onClick={() =>
                              duplicate.mutate(
                                { id: row.id, name: `Copy of ${row.name}` },
                                {
                                  onSuccess: (copy) => void navigate(`/journeys/${copy.data.id}`),
                                  onError: (e) =>
                                    notifications.show({ color: 'red', title: 'Not duplicated', message: e.message }),
                                },
                              )
                            }
                          >
                            Duplicate
                          </Menu.Item>
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
          {shown.length === 0 && (parents.data ?? []).length > 0 && (
            <Group p="md">
              <Text c="dimmed">{needle ? 'No journey matches that name.' : 'No journeys here yet.'}</Text>
            </Group>
          )}
        </div>
      </div>
      {creating && <CreateJourneyModal parents={parents.data ?? []} onClose={() => setCreating(false)} />}
      {renaming && <RenameJourneyModal id={renaming.id} name={renaming.name} onClose={() => setRenaming(null)} />}
    </>
  );
}

export function StateBadge({ state, paused }: { state: string; paused: boolean }) {
  if (state !== 'launched')
    return (
      <Badge color="gray" variant="light">
        Draft
      </Badge>
    );
  return paused ? (
    <Badge color="yellow" variant="light">
      Paused
    </Badge>
  ) : (
    <Badge color="teal" variant="light">
      Launched
    </Badge>
  );
}
