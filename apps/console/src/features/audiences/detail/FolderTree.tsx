import { ActionIcon, Anchor, Box, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment } from '@svc/contracts';
import {
  IconFilePlus,
  IconFolder,
  IconFolderPlus,
  IconLock,
  IconPencil,
  IconTrash,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { BlockedAction } from '../../../components/BlockedAction';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { type FolderNode, folderPath, treeOf } from '../../../lib/folderTree';
import { meQueryOptions } from '../../auth';
import { FolderAccessNote, FolderPermissionsModal, folderBlocker, useFolderAccess } from '../../folder-permissions';
import { folderQueryOptions, useFolderActions } from '../api';
import { FolderNameModal } from './FolderNameModal';

export interface FolderTreeProps {
  record: ParentSegment;
}

/** Deepest listing the API allows: the whole tree in one call. */
const DEPTH = 32;

type Editing = { kind: 'create'; parentId: string } | { kind: 'rename'; folder: FolderNode } | null;

const foldersOf = (node: FolderNode): FolderNode[] => [node, ...node.children.flatMap(foldersOf)];

/**
 * The parent segment's folders and the segments in them: create, rename and delete folders, open segments.
 * Actions the signed-in user cannot take (View permission) are disabled with the reason; administrators
 * open each folder's permissions.
 */
export function FolderTree({ record }: FolderTreeProps) {
  const administrator = useQuery(meQueryOptions()).data?.administrator === true;
  const listing = useQuery(folderQueryOptions(record.rootFolderId, DEPTH));
  const actions = useFolderActions();
  const [editing, setEditing] = useState<Editing>(null);
  const [granting, setGranting] = useState<FolderNode | null>(null);
  const tree = listing.data ? treeOf(record, listing.data.data) : null;
  const folders = tree ? foldersOf(tree) : [];
  const accessIn = useFolderAccess(folders.map((f) => f.id));
  const blocker = (folder: FolderNode, action: string) => folderBlocker(accessIn(folder.id), folder.name, action);
  const pending = actions.create.isPending || actions.rename.isPending;
  const error = editing?.kind === 'create' ? actions.create.error : actions.rename.error;
  const pathOf = (id: string) =>
    tree
      ? folderPath([tree], id)
          .map((f) => f.name)
          .join(' › ')
      : '';

  const close = () => {
    actions.create.reset();
    actions.rename.reset();
    setEditing(null);
  };
  const submit = (name: string) => {
    if (editing?.kind === 'create')
      actions.create.mutate({ name, parentFolderId: editing.parentId }, { onSuccess: close });
    if (editing?.kind === 'rename') actions.rename.mutate({ folderId: editing.folder.id, name }, { onSuccess: close });
  };
  const confirmDelete = (folder: FolderNode) =>
    modals.openConfirmModal({
      title: 'Delete folder',
      children: <Text size="sm">Delete the folder {folder.name}? Only empty folders can be deleted.</Text>,
      labels: { confirm: 'Delete folder', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        actions.remove.mutate(folder.id, {
          onError: (e) =>
            notifications.show({ color: 'red', title: `${folder.name} was not deleted`, message: e.message }),
        }),
    });

  const renderFolder = (folder: FolderNode, root: boolean) => (
    <Box key={folder.id} role="treeitem" aria-label={`Folder ${folder.name}`} aria-expanded>
      <Group gap="xs" wrap="nowrap" py={2}>
        <IconFolder size={18} aria-hidden />
        <Text fw={500} size="sm">
          {folder.name}
        </Text>
        <BlockedAction reason={blocker(folder, 'create segments here')}>
          <ActionIcon
            variant="subtle"
            component={Link}
            to={`/parent-segments/${record.id}/segments/new?folder=${folder.id}`}
            aria-label={`New segment in ${folder.name}`}
          >
            <IconFilePlus size={16} />
          </ActionIcon>
        </BlockedAction>
        <BlockedAction reason={blocker(folder, 'create folders here')}>
          <ActionIcon
            variant="subtle"
            aria-label={`New folder in ${folder.name}`}
            onClick={() => setEditing({ kind: 'create', parentId: folder.id })}
          >
            <IconFolderPlus size={16} />
          </ActionIcon>
        </BlockedAction>
        {!root && (
          <>
            <BlockedAction reason={blocker(folder, 'rename this folder')}>
              <ActionIcon
                variant="subtle"
                aria-label={`Rename ${folder.name}`}
                onClick={() => setEditing({ kind: 'rename', folder })}
              >
                <IconPencil size={16} />
              </ActionIcon>
            </BlockedAction>
            <BlockedAction reason={blocker(folder, 'delete this folder')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${folder.name}`}
                onClick={() => confirmDelete(folder)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </BlockedAction>
          </>
        )}
        {administrator && (
          <Tooltip label="Who has Full Control or View">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Permissions of ${folder.name}`}
              onClick={() => setGranting(folder)}
            >
              <IconLock size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Stack gap={2} pl="lg" role="group">
        {folder.children.map((f) => renderFolder(f, false))}
        {folder.segments.map((s) => (
          <Group key={s.id} gap="xs" role="treeitem" wrap="nowrap">
            <IconUsersGroup size={16} aria-hidden />
            <Anchor component={Link} to={`/parent-segments/${record.id}/segments/${s.id}`} size="sm">
              {s.name}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Box>
  );

  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Segments
        </Title>
        <BlockedAction reason={tree ? blocker(tree, 'create segments here') : null}>
          <Button size="xs" component={Link} to={`/parent-segments/${record.id}/segments/new`}>
            Create segment
          </Button>
        </BlockedAction>
      </Group>
      <Box mb="sm">
        <FolderAccessNote
          folderId={record.rootFolderId}
          folderName={record.name}
          work="create, change or delete segments and folders"
          fullControlIn={folders
            .filter((f) => f.id !== record.rootFolderId && accessIn(f.id) === 'full_control')
            .map((f) => f.name)}
        />
      </Box>
      {listing.isPending ? (
        <CenteredLoader label="Loading folders" height={80} />
      ) : listing.isError ? (
        <QueryError title="The folders could not be loaded" error={listing.error} onRetry={() => listing.refetch()} />
      ) : (
        tree && (
          <Box role="tree" aria-label="Folders and segments">
            {renderFolder(tree, true)}
          </Box>
        )
      )}
      <FolderNameModal
        title={editing === null ? null : editing.kind === 'create' ? 'New folder' : 'Rename folder'}
        initial={editing?.kind === 'rename' ? editing.folder.name : ''}
        pending={pending}
        error={error}
        onSubmit={submit}
        onClose={close}
      />
      {granting && (
        <FolderPermissionsModal
          folder={granting}
          path={pathOf(granting.id)}
          folderName={(id) => folders.find((f) => f.id === id)?.name ?? `folder ${id}`}
          onClose={() => setGranting(null)}
        />
      )}
    </Paper>
  );
}
