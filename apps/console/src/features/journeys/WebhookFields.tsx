import {
  ActionIcon,
  Button,
  Group,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { exampleTemplate, type HeaderDraft, METHODS, type WebhookDraft, type WebhookMethod } from './webhookDraft';

/** Limits the server holds to (journeys/webhookConfig.ts and bodyTemplate.ts), shown before they bite. */
const MAX_HEADERS = 20;
const MAX_TEMPLATE = 8192;

export interface WebhookFieldsProps {
  draft: WebhookDraft;
  onDraft(draft: WebhookDraft): void;
  /** Parent segment columns a template may name. */
  columns: string[];
}

/**
 * How a webhook is called: method, headers (values are secrets: typed in a password field, saved encrypted,
 * shown only masked afterwards) and a JSON body template filled from each profile.
 */
export function WebhookFields({ draft, onDraft, columns }: WebhookFieldsProps) {
  const set = (patch: Partial<WebhookDraft>) => onDraft({ ...draft, ...patch });
  const setHeader = (index: number, patch: Partial<HeaderDraft>) =>
    set({ headers: draft.headers.map((h, i) => (i === index ? { ...h, ...patch } : h)) });
  return (
    <Stack gap={6}>
      <Group gap="xs" align="center">
        <Text size="sm" fw={500} id="webhook-method-label">
          Method
        </Text>
        <SegmentedControl
          aria-labelledby="webhook-method-label"
          size="xs"
          value={draft.method}
          onChange={(value) => set({ method: value as WebhookMethod })}
          data={METHODS.map((m) => ({ value: m, label: m }))}
        />
      </Group>
      <Text size="sm" fw={500}>
        Headers
      </Text>
      {draft.headers.length === 0 && (
        <Text size="xs" c="dimmed">
          No headers. Add one for an API key or an Authorization token.
        </Text>
      )}
      {draft.headers.map((header, index) => (
        // Headers have no id; the row's place is its identity while the form is open.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are only added at the end and removed by place.
        <Group key={index} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={`Header ${index + 1} name`}
            placeholder="Authorization"
            value={header.name}
            style={{ flex: 2 }}
            onChange={(e) => setHeader(index, { name: e.currentTarget.value })}
          />
          <PasswordInput
            aria-label={`Header ${index + 1} value`}
            placeholder={header.masked ? `Saved ${header.masked}; type to replace` : 'Value (kept secret)'}
            value={header.value}
            style={{ flex: 3 }}
            autoComplete="off"
            onChange={(e) => setHeader(index, { value: e.currentTarget.value })}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Remove header ${index + 1}`}
            onClick={() => set({ headers: draft.headers.filter((_, i) => i !== index) })}
            mt={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group gap="xs">
        <Button
          variant="subtle"
          size="compact-xs"
          leftSection={<IconPlus size={14} />}
          disabled={draft.headers.length >= MAX_HEADERS}
          onClick={() => set({ headers: [...draft.headers, { name: '', value: '', masked: null }] })}
        >
          Add header
        </Button>
        <Text size="xs" c="dimmed">
          Values are saved encrypted and never shown again.
        </Text>
      </Group>
      <Textarea
        label="Body template"
        description={`JSON sent once per profile. {{column}} is replaced by the profile's value (escaped). Fields: ${[...columns, 'journey_id', 'activation_id', 'time', 'test'].join(', ')}. Leave empty to send profiles in batches.`}
        placeholder={exampleTemplate(columns)}
        autosize
        minRows={3}
        maxRows={10}
        maxLength={MAX_TEMPLATE}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={draft.bodyTemplate}
        onChange={(e) => set({ bodyTemplate: e.currentTarget.value })}
      />
      {draft.bodyTemplate === '' && (
        <Button
          variant="subtle"
          size="compact-xs"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => set({ bodyTemplate: exampleTemplate(columns) })}
        >
          Start from an example
        </Button>
      )}
    </Stack>
  );
}
