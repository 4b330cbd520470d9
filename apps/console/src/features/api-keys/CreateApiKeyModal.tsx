import { Alert, Button, Group, Modal, NativeSelect, Radio, Stack, Text, TextInput } from '@mantine/core';
import { type ApiKeyType, apiKeyName } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useCreateApiKey } from './api';
import { EXPIRY_CHOICES, type ExpiryChoice, expiryTime } from './expiry';
import { keyTypes } from './keyTypes';

export interface CreatedKey {
  key: string;
  masked: string;
}

export interface CreateApiKeyModalProps {
  onClose: () => void;
  onCreated: (created: CreatedKey) => void;
}

const TYPES: ApiKeyType[] = ['master', 'write-only'];

/**
 * Name, type and expiry of a new key. Shown only while open, so every opening starts over on Write-only,
 * the type that can do the least.
 */
export function CreateApiKeyModal({ onClose, onCreated }: CreateApiKeyModalProps) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [type, setType] = useState<ApiKeyType>('write-only');
  const [expiry, setExpiry] = useState<ExpiryChoice>('never');
  const [date, setDate] = useState('');
  const [dateError, setDateError] = useState<string | null>(null);
  const create = useCreateApiKey();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const named = apiKeyName.safeParse(name);
    const expiresAt = expiryTime(expiry, date, new Date());
    setNameError(named.success ? null : (named.error.issues[0]?.message ?? 'Give the key a name.'));
    setDateError(expiresAt === undefined ? 'Choose the day the key stops working.' : null);
    if (!named.success || expiresAt === undefined) return;
    create.mutate(
      { name: named.data, type, expiresAt },
      {
        // The key goes to the next modal only; nothing here keeps it.
        onSuccess: (result) => onCreated({ key: result.key, masked: result.apiKey.masked }),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Create API key" size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {create.error && (
            <Alert color="red" title="The key was not created">
              {create.error.message}
            </Alert>
          )}
          <TextInput
            label="Name"
            description="Where the key is used, so you know what stops working if you revoke it."
            placeholder="e.g. Web shop SDK"
            required
            value={name}
            error={nameError}
            data-autofocus
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
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
          <Group align="flex-start" grow>
            <NativeSelect
              label="Expires"
              description="After this the key is refused with a message saying it expired."
              data={EXPIRY_CHOICES}
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value as ExpiryChoice)}
            />
            {expiry === 'date' && (
              <TextInput
                label="Last day"
                description="The key works until the end of this day (UTC)."
                type="date"
                value={date}
                error={dateError}
                onChange={(e) => {
                  setDate(e.currentTarget.value);
                  setDateError(null);
                }}
              />
            )}
          </Group>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
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
