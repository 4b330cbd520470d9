import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { formatCount } from '../shared/format';
import { useDeleteDatabase } from './api';

export interface DeleteDatabaseModalProps {
  /** The database to delete; null keeps the modal closed. */
  database: { name: string; count: number } | null;
  onClose: () => void;
  onDeleted?: () => void;
}

/** Deleting drops every table and record, so the name must be typed to confirm. */
export function DeleteDatabaseModal({ database, onClose, onDeleted }: DeleteDatabaseModalProps) {
  const [typed, setTyped] = useState('');
  const remove = useDeleteDatabase();
  const name = database?.name ?? '';

  const close = () => {
    remove.reset();
    setTyped('');
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (typed !== name) return;
    remove.mutate(name, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: `Database ${name} was deleted.` });
        close();
        onDeleted?.();
      },
    });
  };

  return (
    <Modal opened={database !== null} onClose={close} title={`Delete database ${name}`}>
      <form onSubmit={onSubmit}>
        <Stack>
          <Text size="sm">
            Delete the database <strong>{name}</strong> with all its tables and {formatCount(database?.count ?? 0)}{' '}
            records? This cannot be undone.
          </Text>
          {remove.error && (
            <Alert color="red" title="The database was not deleted">
              {remove.error.message}
            </Alert>
          )}
          <TextInput
            label={`Type ${name} to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={remove.isPending} disabled={typed !== name}>
              Delete database
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
