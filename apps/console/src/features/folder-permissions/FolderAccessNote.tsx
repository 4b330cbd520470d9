import { Alert, Badge, Group, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { folderPermissionsQueryOptions } from '../../lib/resources';
import { PERMISSION_LABEL } from './access';

export interface FolderAccessNoteProps {
  folderId: string;
  folderName: string;
  /** What Full Control would let the user do here, e.g. "create and save segments and folders". */
  work: string;
  /** Folders under this one where the user has Full Control all the same (a grant on the sub-folder). */
  fullControlIn?: readonly string[];
}

/**
 * The signed-in user's own access to a folder, shown before they start work: Full Control as a quiet
 * badge; View as a notice saying what they cannot do and whom to ask.
 */
export function FolderAccessNote({ folderId, folderName, work, fullControlIn = [] }: FolderAccessNoteProps) {
  const access = useQuery(folderPermissionsQueryOptions(folderId));
  const permission = access.data?.callerPermission;
  if (!permission) return null;
  if (permission === 'view') {
    return (
      <Alert color="yellow" icon={<IconLock size={18} />} title={`You have View permission on “${folderName}”`}>
        {fullControlIn.length === 0 ? (
          <>
            You can look at everything here, but you cannot {work}. Ask an administrator for Full Control on this
            folder.
          </>
        ) : (
          // A grant on a sub-folder: say where the work can be done rather than that it cannot be done at all.
          <>
            You can look at everything here. You have Full Control in{' '}
            {fullControlIn.map((name) => `“${name}”`).join(', ')}, so you can {work} there. Elsewhere, ask an
            administrator for Full Control.
          </>
        )}
      </Alert>
    );
  }
  return (
    <Group gap="xs">
      <Text size="sm" c="dimmed">
        Your access:
      </Text>
      <Badge variant="light" color="teal" aria-label={`Your access: ${PERMISSION_LABEL[permission]}`}>
        {PERMISSION_LABEL[permission]}
      </Badge>
    </Group>
  );
}
