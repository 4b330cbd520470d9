import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import type { ApiKeyType } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useCreateApiKey } from './api';
import { keyTypes } from './keyTypes';

export interface CreatedKey {
  key: string;
  masked: string;
}

export interface CreateApiKeyModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (created: CreatedKey) => void;
}

const TYPES: ApiKeyType[] = ['master', 'write-only'];

export function CreateApiKeyModal({ opened, onClose, onCreated }: CreateApiKeyModalProps) {
  const [type, setType] = useState<ApiKeyType>('write-only');
  const create = useCreateApiKey();

  const close = () => {
    create.reset();
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(type, {
      onSuccess: (result) => {
        // Hand the key over and drop it from the mutation's state at once: it lives only in the next modal.
        create.reset();
        onCreated({ key: result.key, masked: result.apiKey.masked });
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Create API key" size="lg">
      <form onSubmit={onSubmit}>
        <Stack>
          {create.error && (
            <Alert color="red" title="The key was not created">
              {create.error.message}
            </Alert>
          )}
          <Radio.Group
            label="Type of key"
            description="Choose what a program holding this key may do."
            value={type}
            onChange={(value) => setType(value as ApiKeyType)}
          >
            <Stack gap="sm" mt="xs">
              {TYPES.map((t) => (
                <Radio.Card key={t} value={t} radius="md" p="md">
                  <Group wrap="nowrap" align="flex-start">
                    <Radio.Indicator mt={2} />
                    <div>
                      <Text fw={600}>{keyTypes[t].label}</Text>
                      <Text size="sm" c="dimmed">
                        {keyTypes[t].description}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
