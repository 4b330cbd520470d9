import { Alert, Button, CopyButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
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
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label="New API key"
              value={created.key}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              flex={1}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <CopyButton value={created.key} timeout={2000}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal' : undefined} onClick={copy} miw={110}>
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
          </Group>
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
