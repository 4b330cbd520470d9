import { ActionIcon, Anchor, Box, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment } from '@svc/contracts';
import { IconFilePlus, IconFolder, IconFolderPlus, IconPencil, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { type FolderNode, treeOf } from '../../../lib/folderTree';
import { folderQueryOptions, useFolderActions } from '../api';
import { FolderNameModal } from './FolderNameModal';

export interface FolderTreeProps {
  record: ParentSegment;
}

/** Deepest listing the API allows: the whole tree in one call. */
const DEPTH = 32;

type Editing = { kind: 'create'; parentId: string } | { kind: 'rename'; folder: FolderNode } | null;

/** The parent segment's folders and the segments in them: create, rename and delete folders, open segments. */
export function FolderTree({ record }: FolderTreeProps) {
  const listing = useQuery(folderQueryOptions(record.rootFolderId, DEPTH));
  const actions = useFolderActions();
  const [editing, setEditing] = useState<Editing>(null);
  const pending = actions.create.isPending || actions.rename.isPending;
  const error = editing?.kind === 'create' ? actions.create.error : actions.rename.error;

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
        <Tooltip label="New segment in this folder">
          <ActionIcon
            variant="subtle"
            component={Link}
            to={`/parent-segments/${record.id}/segments/new?folder=${folder.id}`}
            aria-label={`New segment in ${folder.name}`}
          >
            <IconFilePlus size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="New folder inside">
          <ActionIcon
            variant="subtle"
            aria-label={`New folder in ${folder.name}`}
            onClick={() => setEditing({ kind: 'create', parentId: folder.id })}
          >
            <IconFolderPlus size={16} />
          </ActionIcon>
        </Tooltip>
        {!root && (
          <>
            <ActionIcon
              variant="subtle"
              aria-label={`Rename ${folder.name}`}
              onClick={() => setEditing({ kind: 'rename', folder })}
            >
              <IconPencil size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${folder.name}`}
              onClick={() => confirmDelete(folder)}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </>
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
        <Button size="xs" component={Link} to={`/parent-segments/${record.id}/segments/new`}>
          Create segment
        </Button>
      </Group>
      {listing.isPending ? (
        <CenteredLoader label="Loading folders" height={80} />
      ) : listing.isError ? (
        <QueryError title="The folders could not be loaded" error={listing.error} onRetry={() => listing.refetch()} />
      ) : (
        <Box role="tree" aria-label="Folders and segments">
          {renderFolder(treeOf(record, listing.data.data), true)}
        </Box>
      )}
      <FolderNameModal
        title={editing === null ? null : editing.kind === 'create' ? 'New folder' : 'Rename folder'}
        initial={editing?.kind === 'rename' ? editing.folder.name : ''}
        pending={pending}
        error={error}
        onSubmit={submit}
        onClose={close}
      />
    </Paper>
  );
}
