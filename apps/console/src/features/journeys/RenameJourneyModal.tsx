import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useRenameJourney } from './api';

/** Renames a draft journey (launched journeys keep their attributes). */
export function RenameJourneyModal({ id, name, onClose }: { id: string; name: string; onClose(): void }) {
  const [value, setValue] = useState(name);
  const rename = useRenameJourney();
  return (
    <Modal opened onClose={onClose} title="Rename journey">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rename.mutate({ id, name: value.trim() }, { onSuccess: onClose });
        }}
      >
        <Stack>
          <TextInput
            label="Journey name"
            required
            data-autofocus
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          {rename.error && <Alert color="red">{rename.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={rename.isPending} disabled={!value.trim()}>
              Rename
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
