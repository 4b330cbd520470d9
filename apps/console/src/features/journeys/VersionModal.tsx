import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { useCreateVersion } from './api';

export interface VersionModalProps {
  journeyId: string;
  name: string;
  opened: boolean;
  onClose(): void;
}

/** "Edit as new draft" of a launched journey: what a version is, and what its launch does to profiles. */
export function VersionModal({ journeyId, name, opened, onClose }: VersionModalProps) {
  const create = useCreateVersion();
  const navigate = useNavigate();
  return (
    <Modal opened={opened} onClose={onClose} title="Edit as a new draft" size="lg">
      <Stack gap="sm">
        <Text size="sm">
          A launched journey’s steps cannot change. This makes a draft version of <strong>{name}</strong> with the same
          stages, steps, segments and copies of its activations. Edit it, then launch it to replace this journey.
        </Text>
        <Alert color="blue" p="xs" title="When the new version is launched">
          <List size="sm" spacing={2}>
            <List.Item>
              Profiles at a step you leave unchanged keep their place and progress (a wait goes on counting). Renaming a
              step or changing where it leads counts as unchanged.
            </List.Item>
            <List.Item>
              Profiles at a step whose settings you change or remove, or in a stage you remove, leave the journey.
            </List.Item>
            <List.Item>This journey is paused for good; its history stays here.</List.Item>
          </List>
          <Text size="xs" mt={4}>
            The launch dialog shows how many profiles keep their place and how many leave.
          </Text>
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={create.isPending}
            onClick={() =>
              create.mutate(
                { id: journeyId, name: `${name} (new version)` },
                {
                  onSuccess: (made) => {
                    onClose();
                    notifications.show({
                      color: 'teal',
                      message: `"${made.data.attributes.name}" was created as a draft version.`,
                    });
                    void navigate(`/journeys/${made.data.id}`);
                  },
                  onError: (error) =>
                    notifications.show({ color: 'red', title: 'Not created', message: error.message }),
                },
              )
            }
          >
            Make the draft version
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
