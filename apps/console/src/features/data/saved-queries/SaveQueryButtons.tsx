import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { SavedQuery, SavedQueryInput } from '@svc/contracts';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { useUpdateSavedQuery } from './api';
import { SaveQueryModal } from './SaveQueryModal';

export interface SaveQueryButtonsProps {
  /** The saved query the editor holds, if it was opened from one. */
  saved: SavedQuery | null;
  draft: Omit<SavedQueryInput, 'name' | 'description'>;
  /** The editor now holds this saved query (a new one after "Save as"). */
  onSaved: (saved: SavedQuery) => void;
}

/**
 * The editor's "Save" and "Save as": Save writes the editor's SQL, database and engine over the saved query it
 * was opened from (when the user may change it), else asks for a name like Save as.
 */
export function SaveQueryButtons({ saved, draft, onSaved }: SaveQueryButtonsProps) {
  const [naming, setNaming] = useState(false);
  const update = useUpdateSavedQuery();
  const canOverwrite = saved?.editable === true;
  const disabled = draft.query.trim() === '' || draft.database === '';
  const save = () => {
    if (!saved || !canOverwrite) {
      setNaming(true);
      return;
    }
    update.mutate(
      { id: saved.id, ...draft },
      {
        onSuccess: (s) => notifications.show({ color: 'teal', message: `Saved "${s.name}".` }),
        onError: (error) =>
          notifications.show({ color: 'red', title: `"${saved.name}" was not saved`, message: error.message }),
      },
    );
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        variant="default"
        leftSection={<IconDeviceFloppy size={16} />}
        onClick={save}
        loading={update.isPending}
        disabled={disabled}
      >
        Save
      </Button>
      <Button variant="subtle" onClick={() => setNaming(true)} disabled={disabled}>
        Save as
      </Button>
      {saved && (
        <Text size="sm" c="dimmed" truncate maw={220} title={saved.name}>
          {saved.name}
          {canOverwrite ? '' : ' (read only: Save makes a copy)'}
        </Text>
      )}
      {naming && (
        <SaveQueryModal
          draft={draft}
          from={saved}
          onClose={() => setNaming(false)}
          onSaved={(s) => {
            setNaming(false);
            notifications.show({ color: 'teal', message: `Saved "${s.name}".` });
            onSaved(s);
          }}
        />
      )}
    </Group>
  );
}
