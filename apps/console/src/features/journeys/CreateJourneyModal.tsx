import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import type { ParentSegment } from '@svc/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateJourney } from './api';

export interface CreateJourneyModalProps {
  parents: ParentSegment[];
  onClose(): void;
}

/** Name and parent segment of a new draft journey; opens it on the canvas. */
export function CreateJourneyModal({ parents, onClose }: CreateJourneyModalProps) {
  const [name, setName] = useState('');
  const [audienceId, setAudienceId] = useState<string | null>(parents[0]?.id ?? null);
  const create = useCreateJourney();
  const navigate = useNavigate();
  return (
    <Modal opened onClose={onClose} title="Create journey">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!audienceId) return;
          create.mutate(
            { name: name.trim(), audienceId },
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
          <Select
            label="Parent segment"
            required
            data={parents.map((p) => ({ value: p.id, label: p.name }))}
            value={audienceId}
            onChange={setAudienceId}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
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
