import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';

export interface FolderNameModalProps {
  /** "New folder" or "Rename folder"; null closes the modal. */
  title: string | null;
  initial: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

/** Asks for a folder's name (create and rename). */
export function FolderNameModal({ title, initial, pending, error, onSubmit, onClose }: FolderNameModalProps) {
  return (
    <Modal opened={title !== null} onClose={onClose} title={title}>
      {title !== null && (
        <NameForm initial={initial} pending={pending} error={error} onSubmit={onSubmit} submitLabel={title} />
      )}
    </Modal>
  );
}

function NameForm({
  initial,
  pending,
  error,
  onSubmit,
  submitLabel,
}: Pick<FolderNameModalProps, 'initial' | 'pending' | 'error' | 'onSubmit'> & { submitLabel: string }) {
  const [name, setName] = useState(initial);
  const [blank, setBlank] = useState(false);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBlank(name.trim() === '');
        if (name.trim() !== '') onSubmit(name.trim());
      }}
    >
      <Stack>
        <TextInput
          label="Folder name"
          data-autofocus
          value={name}
          error={blank ? 'Give the folder a name.' : undefined}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {error && <Alert color="red">{error.message}</Alert>}
        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
