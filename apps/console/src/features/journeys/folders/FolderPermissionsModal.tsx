import { Alert, Badge, Button, Group, Modal, ScrollArea, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ConsoleUser, FolderPermissions } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import type { FolderNode } from '../../../lib/folderTree';
import { usersQueryOptions } from '../../users';
import { permissionsQuery } from '../api';
import { type GrantChoice, useSaveFolderPermissions } from './api';

export interface FolderPermissionsModalProps {
  folder: FolderNode;
  /** The folder's place, e.g. "Shop customers › Campaigns". */
  path: string;
  /** Names folders that grants are inherited from. */
  folderName(id: string): string;
  onClose(): void;
}

const CHOICES: { value: GrantChoice; label: string }[] = [
  { value: 'full_control', label: 'Full Control' },
  { value: 'view', label: 'View' },
  { value: 'none', label: 'No grant' },
];
const LABEL: Record<string, string> = { full_control: 'Full Control', view: 'View' };

/** Administrators grant Full Control or View on a folder per user; saved with the folder permissions route. */
export function FolderPermissionsModal({ folder, path, folderName, onClose }: FolderPermissionsModalProps) {
  const users = useQuery(usersQueryOptions());
  const current = useQuery(permissionsQuery(folder.id));
  const error = users.error ?? current.error;
  return (
    <Modal opened onClose={onClose} title={`Permissions: ${folder.name}`} size="xl">
      <Stack gap="sm">
        <Text size="sm">Folder: {path}</Text>
        <Text size="sm" c="dimmed">
          <b>Full Control</b>: create, change, launch, pause, resume and delete journeys here and in sub-folders.{' '}
          <b>View</b>: read only. Sub-folders inherit these grants unless they have their own; administrators always
          have Full Control.
        </Text>
        {error ? (
          <QueryError title="Permissions could not be loaded" error={error} />
        ) : users.data && current.data ? (
          <GrantsForm
            folder={folder}
            users={users.data}
            current={current.data}
            folderName={folderName}
            onClose={onClose}
          />
        ) : (
          <CenteredLoader label="Loading permissions" />
        )}
      </Stack>
    </Modal>
  );
}

interface GrantsFormProps extends Pick<FolderPermissionsModalProps, 'folder' | 'folderName' | 'onClose'> {
  users: ConsoleUser[];
  current: FolderPermissions;
}

function GrantsForm({ folder, users, current, folderName, onClose }: GrantsFormProps) {
  // The folder's own grants are the form's starting point; inherited ones only explain "No grant".
  const [choices, setChoices] = useState(
    () =>
      new Map<number, GrantChoice>(
        current.grants.filter((g) => !g.inherited).map((g) => [Number(g.userId), g.permission]),
      ),
  );
  const save = useSaveFolderPermissions(folder.id);
  const inherited = new Map(current.grants.filter((g) => g.inherited).map((g) => [Number(g.userId), g]));
  const withoutGrant = (userId: number) => {
    const from = inherited.get(userId);
    return from
      ? `Inherits ${LABEL[from.permission]} from “${folderName(from.folderId)}”`
      : `${LABEL[current.defaultPermission]} by default`;
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(choices, {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: `Permissions on “${folder.name}” were saved.` });
            onClose();
          },
        });
      }}
    >
      <Stack gap="sm">
        <ScrollArea.Autosize mah="55vh">
          <Table verticalSpacing="xs" aria-label="Permissions per user">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Permission on this folder</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => {
                const choice = choices.get(user.id) ?? 'none';
                return (
                  <Table.Tr key={user.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {user.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {user.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {user.administrator ? (
                        <Group gap="xs">
                          <Badge variant="light">Administrator</Badge>
                          <Text size="xs" c="dimmed">
                            Always Full Control
                          </Text>
                        </Group>
                      ) : (
                        <Stack gap={4} align="flex-start">
                          <SegmentedControl
                            size="xs"
                            aria-label={`Permission of ${user.name}`}
                            data={CHOICES}
                            value={choice}
                            onChange={(value) => setChoices((map) => new Map(map).set(user.id, value as GrantChoice))}
                          />
                          {choice === 'none' && (
                            <Text size="xs" c="dimmed">
                              {withoutGrant(user.id)}
                            </Text>
                          )}
                        </Stack>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
        {save.error && (
          <Alert color="red" title="Permissions not saved">
            {save.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save permissions
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
