import { Alert, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { FolderPermission } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { accountSettingsQueryOptions } from '../../lib/resources';
import { useChangeAccountSettings } from './api';

const CHOICES: { value: FolderPermission; label: string }[] = [
  { value: 'view', label: 'View' },
  { value: 'full_control', label: 'Full Control' },
];

/**
 * The account setting of what members (new users included) have on a folder where no grant says
 * otherwise; grants on a folder, and administrators, are not affected.
 */
export function DefaultFolderAccess() {
  const settings = useQuery(accountSettingsQueryOptions());
  const change = useChangeAccountSettings();
  const value = settings.data?.defaultFolderPermission;
  return (
    <Paper withBorder radius="md" p="md" mt="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Default folder access
        </Title>
        <Text size="sm" c="dimmed" maw={720}>
          What a member has in a folder of parent segments and journeys where no grant on that folder or a folder above
          it says otherwise. It applies to every member without a grant, new users included. Whoever creates a parent
          segment gets Full Control on it; administrators always have Full Control.
        </Text>
        <Group>
          <SegmentedControl
            aria-label="Default folder access"
            data={CHOICES}
            value={value ?? 'view'}
            disabled={!value || change.isPending}
            onChange={(next) =>
              change.mutate(
                { defaultFolderPermission: next as FolderPermission },
                {
                  onSuccess: (saved) =>
                    notifications.show({
                      color: 'teal',
                      message: `Members without a grant now have ${saved.defaultFolderPermission === 'view' ? 'View' : 'Full Control'}.`,
                    }),
                },
              )
            }
          />
        </Group>
        {change.error && (
          <Alert color="red" title="The setting was not changed">
            {change.error.message}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
