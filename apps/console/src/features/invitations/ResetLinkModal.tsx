import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { resetLinkFor } from './api';
import { LinkToCopy } from './LinkToCopy';

export interface ResetLinkModalProps {
  /** The user to make a reset link for; null: closed. */
  user: { id: number; name: string; email: string } | null;
  onClose: () => void;
}

/** An administrator makes a password reset link for a user: to copy, and e-mailed when the server can. */
export function ResetLinkModal({ user, onClose }: ResetLinkModalProps) {
  const make = useMutation({ mutationFn: resetLinkFor });
  const close = () => {
    make.reset();
    onClose();
  };
  return (
    <Modal opened={user !== null} onClose={close} title="Password reset link" size="lg">
      {user && (
        <Stack>
          {make.error && (
            <Alert color="red" title="No link was made">
              {make.error.message}
            </Alert>
          )}
          {make.data ? (
            <LinkToCopy sent={make.data} label="Reset link" to={user.email} />
          ) : (
            <Text size="sm">
              Make a link with which {user.name} ({user.email}) chooses a new password. It works once, for one hour; an
              earlier link stops working. Their password stays until they use it.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {make.data ? 'Done' : 'Cancel'}
            </Button>
            {!make.data && (
              <Button loading={make.isPending} onClick={() => make.mutate(user.id)}>
                Make reset link
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
