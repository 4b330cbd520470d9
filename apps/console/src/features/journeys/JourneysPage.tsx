import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { buildFolderTree, type FolderNode, folderAndBelow, folderPath } from '../../lib/folderTree';
import { folderPermissionsQueryOptions, folderQueryOptions, parentSegmentsQueryOptions } from '../../lib/resources';
import { meQueryOptions } from '../auth';
import { FolderPermissionsModal } from '../folder-permissions';
import { FOLDER_DEPTH, journeysOf } from './api';
import { CreateJourneyModal } from './CreateJourneyModal';
import { FolderTree } from './folders/FolderTree';
import { type JourneyRow, JourneysTable } from './JourneysTable';
import { RenameJourneyModal } from './RenameJourneyModal';

const placeOf = (path: FolderNode[]) =>
  path
    .slice(1)
    .map((f) => f.name)
    .join(' › ');

/** `/journeys`: every journey by parent segment and folder, with state; create, rename, duplicate, delete. */
export function JourneysPage() {
  const parents = useQuery(parentSegmentsQueryOptions());
  const me = useQuery(meQueryOptions());
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<JourneyRow | null>(null);
  const [granting, setGranting] = useState<FolderNode | null>(null);
  const listings = useQueries({
    queries: (parents.data ?? []).map((p) => folderQueryOptions(p.rootFolderId, FOLDER_DEPTH)),
  });
  const tree = useMemo(
    () =>
      buildFolderTree(
        (parents.data ?? []).map((p, i) => ({
          audienceId: p.id,
          name: p.name,
          rootFolderId: p.rootFolderId,
          entries: listings[i]?.data?.data ?? [],
        })),
      ),
    [parents.data, listings],
  );
  const rows: JourneyRow[] = useMemo(
    () =>
      (parents.data ?? []).flatMap((parent, i) =>
        journeysOf(listings[i]?.data?.data ?? []).map((j) => ({
          ...j,
          parent,
          place: placeOf(folderPath(tree, j.folderId)),
        })),
      ),
    [parents.data, listings, tree],
  );
  // A chosen folder that has gone (deleted meanwhile) falls back to every journey.
  const chosen = folder === null ? null : (folderPath(tree, folder).at(-1) ?? null);
  const roots = (parents.data ?? []).map((p) => p.rootFolderId);
  const folderIds = [...new Set([...roots, ...rows.map((r) => r.folderId), ...(chosen ? [chosen.id] : [])])];
  const permissions = useQueries({ queries: folderIds.map((id) => folderPermissionsQueryOptions(id)) });
  const permissionIn = (id: string) => permissions[folderIds.indexOf(id)]?.data?.callerPermission;
  const canControl = (id: string) => permissionIn(id) === 'full_control';

  if (parents.isPending) return <CenteredLoader label="Loading journeys" />;
  if (parents.error) return <QueryError title="Journeys could not be loaded" error={parents.error} />;

  const needle = search.trim().toLowerCase();
  const inChosen = chosen ? folderAndBelow(chosen) : null;
  const shown = rows.filter(
    (r) => (!needle || r.name.toLowerCase().includes(needle)) && (!inChosen || inChosen.has(r.folderId)),
  );
  // Journeys are created in the chosen folder, or, from "All journeys", in a parent segment's root folder.
  const creatable = (parents.data ?? []).filter((p) => canControl(p.rootFolderId));
  const createBlocker = chosen
    ? permissionIn(chosen.id) === 'view'
      ? `You have View permission on “${chosen.name}”. Ask an administrator for Full Control to create journeys here.`
      : null
    : roots.length > 0 && roots.every((id) => permissionIn(id) === 'view')
      ? 'You have View permission on the parent segments. Choose a folder where you have Full Control.'
      : null;
  const canCreate = chosen ? canControl(chosen.id) : creatable.length > 0;

  return (
    <>
      <PageHeader
        title="Journeys"
        description="Design, launch and run customer journeys: stages, waits, decision points, A/B tests and activations."
        action={
          <Stack gap={4} align="flex-end" maw={340}>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
              disabled={!canCreate}
              aria-describedby={createBlocker ? 'create-journey-blocker' : undefined}
            >
              Create journey
            </Button>
            {createBlocker && (
              <Text id="create-journey-blocker" size="xs" c="dimmed" ta="right">
                {createBlocker}
              </Text>
            )}
          </Stack>
        }
      />
      {(parents.data ?? []).length === 0 && (
        <Text c="dimmed">Journeys belong to a parent segment. Create a parent segment first.</Text>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: '280px minmax(0, 1fr)', gap: 16, alignItems: 'start' }}>
        <FolderTree
          tree={tree}
          selected={chosen?.id ?? null}
          onSelect={setFolder}
          {...(me.data?.administrator ? { onPermissions: setGranting } : {})}
        />
        <div>
          <TextInput
            mb="sm"
            label="Search journeys by name"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <JourneysTable rows={shown} canControl={canControl} onRename={setRenaming} />
          {shown.length === 0 && (parents.data ?? []).length > 0 && (
            <Group p="md">
              <Text c="dimmed">{needle ? 'No journey matches that name.' : 'No journeys here yet.'}</Text>
            </Group>
          )}
        </div>
      </div>
      {creating && (
        <CreateJourneyModal
          parents={creatable}
          folder={chosen ? { id: chosen.id, audienceId: chosen.audienceId, path: pathLabel(tree, chosen.id) } : null}
          onClose={() => setCreating(false)}
        />
      )}
      {renaming && <RenameJourneyModal id={renaming.id} name={renaming.name} onClose={() => setRenaming(null)} />}
      {granting && (
        <FolderPermissionsModal
          folder={granting}
          path={pathLabel(tree, granting.id)}
          folderName={(id) => folderPath(tree, id).at(-1)?.name ?? `folder ${id}`}
          onClose={() => setGranting(null)}
        />
      )}
    </>
  );
}

const pathLabel = (tree: FolderNode[], id: string) =>
  folderPath(tree, id)
    .map((f) => f.name)
    .join(' › ');
