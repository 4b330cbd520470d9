import { Alert, Badge, Button, Group, Modal, ScrollArea, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ConsoleUser, FolderPermissions } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { QueryError } from '../../components/QueryError';
import { folderPermissionsQueryOptions } from '../../lib/resources';
import { usersQueryOptions } from '../users';
import { accessOf, PERMISSION_LABEL } from './access';
import { type GrantChoice, useSaveFolderPermissions } from './api';

export interface FolderPermissionsModalProps {
  folder: { id: string; name: string };
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

/**
 * Administrators see who has Full Control or View on a folder (and where it comes from: a grant here, one
 * inherited from a folder above, the account default) and change the grants made on this folder.
 */
export function FolderPermissionsModal({ folder, path, folderName, onClose }: FolderPermissionsModalProps) {
  const users = useQuery(usersQueryOptions());
  const current = useQuery(folderPermissionsQueryOptions(folder.id));
  const error = users.error ?? current.error;
  return (
    <Modal opened onClose={onClose} title={`Permissions: ${folder.name}`} size="xl">
      <Stack gap="sm">
        <Text size="sm">Folder: {path}</Text>
        <Text size="sm" c="dimmed">
          <b>Full Control</b>: create, change and delete segments, sub-folders and journeys here and in sub-folders, and
          launch, pause and resume journeys. <b>View</b>: read only. Sub-folders inherit these grants unless they have
          their own; administrators always have Full Control.
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
  // The folder's own grants are the form's starting point; the rest is shown as where access comes from.
  const [choices, setChoices] = useState(
    () =>
      new Map<number, GrantChoice>(
        current.grants.filter((g) => !g.inherited).map((g) => [Number(g.userId), g.permission]),
      ),
  );
  const save = useSaveFolderPermissions(folder.id);
  // Without its own grant, a user has what a folder above grants, else the account default.
  const above = { ...current, grants: current.grants.filter((g) => g.inherited) };
  const accessNow = (user: ConsoleUser) => {
    const choice = choices.get(user.id) ?? 'none';
    if (user.administrator || choice === 'none') return accessOf(user, above, folderName);
    return { permission: choice, source: 'granted here' };
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
                <Table.Th>Grant on this folder</Table.Th>
                <Table.Th>Access here</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => {
                const access = accessNow(user);
                return (
                  <Table.Tr key={user.id} data-user={user.email}>
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
                        <Badge variant="light">Administrator</Badge>
                      ) : (
                        <SegmentedControl
                          size="xs"
                          aria-label={`Permission of ${user.name}`}
                          data={CHOICES}
                          value={choices.get(user.id) ?? 'none'}
                          onChange={(value) => setChoices((map) => new Map(map).set(user.id, value as GrantChoice))}
                        />
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        color={access.permission === 'full_control' ? 'teal' : 'gray'}
                        aria-label={`Access of ${user.name}: ${PERMISSION_LABEL[access.permission]}, ${access.source}`}
                      >
                        {PERMISSION_LABEL[access.permission]}
                      </Badge>
                      <Text size="xs" c="dimmed" mt={2}>
                        {access.source}
                      </Text>
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
