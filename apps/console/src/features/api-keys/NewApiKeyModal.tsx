import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { CopyField } from '../../components/CopyField';
import type { CreatedKey } from './CreateApiKeyModal';

export interface NewApiKeyModalProps {
  created: CreatedKey | null;
  onClose: () => void;
}

/** The one and only showing of a whole key. Closing it forgets the key in the browser too. */
export function NewApiKeyModal({ created, onClose }: NewApiKeyModalProps) {
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title="Copy your new API key"
      size="lg"
      closeOnClickOutside={false}
    >
      {created && (
        <Stack>
          <Alert color="yellow" title="This key is shown only once">
            Copy it now and keep it somewhere safe. After you close this window it is never shown again; the list shows
            it only as <strong>{created.masked}</strong>.
          </Alert>
          <CopyField label="New API key" value={created.key} copyLabel="Copy key" />
          <Text size="sm" c="dimmed">
            Send it as <code>Authorization: SVC1 &lt;key&gt;</code>.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
