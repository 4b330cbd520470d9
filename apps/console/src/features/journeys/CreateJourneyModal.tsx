import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import type { ParentSegment } from '@svc/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateJourney } from './api';

export interface CreateJourneyModalProps {
  /** Parent segments to choose from when no folder is given (the journey goes in the root folder). */
  parents: ParentSegment[];
  /** The folder to create the journey in; its parent segment is then fixed. */
  folder?: { id: string; audienceId: string; path: string } | null;
  onClose(): void;
}

/** Name and place (a folder, or a parent segment's root folder) of a new draft journey; opens it on the canvas. */
export function CreateJourneyModal({ parents, folder = null, onClose }: CreateJourneyModalProps) {
  const [name, setName] = useState('');
  const [chosenAudience, setAudienceId] = useState<string | null>(parents[0]?.id ?? null);
  const audienceId = folder ? folder.audienceId : chosenAudience;
  const create = useCreateJourney();
  const navigate = useNavigate();
  return (
    <Modal opened onClose={onClose} title="Create journey">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!audienceId) return;
          create.mutate(
            { name: name.trim(), audienceId, ...(folder ? { folderId: folder.id } : {}) },
            { onSuccess: (answer) => void navigate(`/journeys/${answer.data.id}`) },
          );
        }}
      >
        <Stack>
          <TextInput
            label="Journey name"
            required
            data-autofocus
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          {folder ? (
            <TextInput label="Folder" value={folder.path} readOnly variant="filled" />
          ) : (
            <Select
              label="Parent segment"
              required
              data={parents.map((p) => ({ value: p.id, label: p.name }))}
              value={audienceId}
              onChange={setAudienceId}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {create.error && <Alert color="red">{create.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!name.trim() || !audienceId}>
              Create journey
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
