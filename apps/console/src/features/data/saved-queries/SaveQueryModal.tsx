import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { SAVED_QUERY_LIMITS, type SavedQuery, type SavedQueryInput } from '@svc/contracts';
import { useState } from 'react';
import { fieldOf, useCreateSavedQuery } from './api';

export interface SaveQueryModalProps {
  /** What the editor holds: engine, database and SQL. */
  draft: Omit<SavedQueryInput, 'name' | 'description'>;
  /** The saved query the editor came from, whose name and description the form starts with. */
  from: SavedQuery | null;
  onClose: () => void;
  onSaved: (saved: SavedQuery) => void;
}

/** "Save as": a new saved query from the editor, named and described here. The server's refusals show at their field. */
export function SaveQueryModal({ draft, from, onClose, onSaved }: SaveQueryModalProps) {
  const [name, setName] = useState(from ? `Copy of ${from.name}`.slice(0, SAVED_QUERY_LIMITS.name) : '');
  const [description, setDescription] = useState(from?.description ?? '');
  const create = useCreateSavedQuery();
  const field = fieldOf(create.error);
  const submit = () => create.mutate({ ...draft, name, description }, { onSuccess: (saved) => onSaved(saved) });
  return (
    <Modal opened onClose={onClose} title="Save query">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Name"
            description="Shared with everyone in the account"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={field === 'name' ? create.error?.message : undefined}
            data-autofocus
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={field === 'description' ? create.error?.message : undefined}
            autosize
            minRows={2}
          />
          {create.error && field !== 'name' && field !== 'description' && (
            <Alert color="red" title="The query was not saved">
              {create.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
