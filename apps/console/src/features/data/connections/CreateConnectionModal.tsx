import { Alert, Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RESULT_NAME } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useCreateConnection } from './api';

export interface CreateConnectionModalProps {
  opened: boolean;
  onClose: () => void;
}

const NAME_RULE = 'Letters, digits, "_" and "-" only, 1 to 255 characters.';

/**
 * The URL may hold a password or key, so it is typed in a password field and dropped from memory once
 * sent: afterwards only the server's masked form is shown.
 */
export function CreateConnectionModal({ opened, onClose }: CreateConnectionModalProps) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const create = useCreateConnection();
  const nameInvalid = name !== '' && !RESULT_NAME.test(name);

  const close = () => {
    create.reset();
    setName('');
    setUrl('');
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!RESULT_NAME.test(name) || url.trim() === '') return;
    create.mutate(
      { name, url: url.trim() },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: `Connection ${name} was saved.` });
          close();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Create result connection" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {create.error && (
            <Alert color="red" title="The connection was not saved">
              {create.error.message}
            </Alert>
          )}
          <TextInput
            label="Name"
            description={NAME_RULE}
            value={name}
            onChange={(e) => setName(e.currentTarget.value.trim())}
            error={nameInvalid ? NAME_RULE : undefined}
            required
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          <PasswordInput
            label="URL"
            description="Where results go, e.g. s3://KEY:SECRET@bucket/path or postgresql://user:password@host/db/table. Credentials are stored and shown masked."
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            required
            autoComplete="off"
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!RESULT_NAME.test(name) || url.trim() === ''}>
              Save connection
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
