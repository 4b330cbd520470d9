import { Alert, Button, Code, Group, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import type { ActivationTestResult } from '@svc/contracts';
import { IconSend } from '@tabler/icons-react';
import { useTestActivation } from './api';
import { WebhookFields } from './WebhookFields';
import { connectorConfigOf, type WebhookDraft } from './webhookDraft';

/** Where an activation sends its profiles: a saved connection, or a new webhook, table or CSV file. */
export type TargetKind = 'existing' | 'webhook' | 'table' | 'csv';

export interface TargetDraft {
  kind: TargetKind;
  webhookUrl: string;
  database: string;
  table: string;
  csvName: string;
}

export const emptyTarget = (kind: TargetKind): TargetDraft => ({
  kind,
  webhookUrl: '',
  database: '',
  table: '',
  csvName: '',
});

/** The result connection URL of a new target, or null (with nothing typed yet, or an existing connection). */
export function targetUrl(draft: TargetDraft): string | null {
  if (draft.kind === 'webhook') return draft.webhookUrl.trim() || null;
  if (draft.kind === 'table') {
    const [db, table] = [draft.database.trim(), draft.table.trim()];
    return db && table ? `td://@/${encodeURIComponent(db)}/${encodeURIComponent(table)}` : null;
  }
  if (draft.kind === 'csv') return draft.csvName.trim() ? `csv://${encodeURIComponent(draft.csvName.trim())}` : null;
  return null;
}

/** A connection name for a target made from a step: the activation's name, made safe, plus a short suffix. */
export function connectionNameFor(activationName: string, now = Date.now()): string {
  const base =
    activationName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'activation';
  return `${base}_${now.toString(36)}`;
}

function testText(result: ActivationTestResult): string {
  if (result.status === 'success')
    return `The webhook answered HTTP ${result.responseCode ?? '2xx'}: the test profile arrived.`;
  return result.error ?? 'The test was not delivered.';
}

function TestAnswer({ result }: { result: ActivationTestResult }) {
  return (
    <Alert color={result.status === 'success' ? 'teal' : 'red'} p="xs" role="status" title="Test send">
      {testText(result)}
      {result.responseExcerpt ? (
        <Code block mt={4} aria-label="Response body">
          {result.responseExcerpt}
        </Code>
      ) : null}
    </Alert>
  );
}

export interface ActivationTargetProps {
  journeyId: string;
  draft: TargetDraft;
  onDraft(draft: TargetDraft): void;
  connections: string[];
  connectionId: string;
  onConnection(name: string): void;
  /** Whether the chosen saved connection is a webhook (so its method, headers and template apply). */
  savedIsWebhook: boolean;
  webhook: WebhookDraft;
  onWebhook(draft: WebhookDraft): void;
  /** Parent segment columns, for the body template. */
  columns: string[];
  /** The saved activation being edited: a test uses its stored header values for headers not retyped. */
  activationId: string | null;
}

/**
 * The target part of the activation form: pick a saved result connection, or make one here (a webhook
 * with "Send a test", a table of a database, or a CSV file to download from each delivery).
 */
export function ActivationTarget({
  journeyId,
  draft,
  onDraft,
  connections,
  connectionId,
  onConnection,
  savedIsWebhook,
  webhook,
  onWebhook,
  columns,
  activationId,
}: ActivationTargetProps) {
  const test = useTestActivation(journeyId);
  const set = (patch: Partial<TargetDraft>) => onDraft({ ...draft, ...patch });
  const testTarget =
    draft.kind === 'webhook' ? (draft.webhookUrl.trim() ? { url: draft.webhookUrl.trim() } : null) : null;
  const savedTarget = draft.kind === 'existing' && connectionId ? { connectionId } : null;
  const target = testTarget ?? savedTarget;
  const webhookShown = draft.kind === 'webhook' || (draft.kind === 'existing' && savedIsWebhook);
  const sendTest = () =>
    target &&
    test.mutate({
      ...target,
      ...(webhookShown ? { connectorConfig: connectorConfigOf(webhook) } : {}),
      ...(activationId ? { activationId } : {}),
    });
  return (
    <Stack gap={6}>
      <SegmentedControl
        aria-label="Send profiles to"
        value={draft.kind}
        onChange={(value) => {
          test.reset();
          onDraft({ ...draft, kind: value as TargetKind });
        }}
        data={[
          { value: 'existing', label: 'Saved connection' },
          { value: 'webhook', label: 'New webhook' },
          { value: 'table', label: 'New table' },
          { value: 'csv', label: 'New CSV file' },
        ]}
      />
      {draft.kind === 'existing' && (
        <Select
          label="Connection"
          description="A saved result connection (Data › Connections)."
          nothingFoundMessage="No result connection yet: choose New webhook, New table or New CSV file"
          required
          searchable
          data={connections}
          value={connectionId || null}
          onChange={(value) => onConnection(value ?? '')}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {draft.kind === 'webhook' && (
        <TextInput
          label="Webhook URL"
          required
          placeholder="https://hooks.example.com/journeys"
          description="Without a body template, profiles are sent as JSON: {journeyId, activationId, deliveredAt, profiles: [{…profile columns}]}, up to 500 per request. https:// only; http:// and private addresses only where the operator allows them."
          value={draft.webhookUrl}
          onChange={(e) => {
            test.reset();
            set({ webhookUrl: e.currentTarget.value });
          }}
        />
      )}
      {draft.kind === 'table' && (
        <Group grow>
          <TextInput
            label="Database"
            required
            value={draft.database}
            onChange={(e) => set({ database: e.currentTarget.value })}
          />
          <TextInput
            label="Table"
            required
            description="Created at the first delivery"
            value={draft.table}
            onChange={(e) => set({ table: e.currentTarget.value })}
          />
        </Group>
      )}
      {draft.kind === 'csv' && (
        <TextInput
          label="File name"
          required
          description="Each delivery keeps a CSV file to download from the Deliveries tab."
          value={draft.csvName}
          onChange={(e) => set({ csvName: e.currentTarget.value })}
        />
      )}
      {webhookShown && <WebhookFields draft={webhook} onDraft={onWebhook} columns={columns} />}
      {(draft.kind === 'webhook' || draft.kind === 'existing') && (
        <Group gap="xs">
          <Button
            variant="light"
            size="xs"
            leftSection={<IconSend size={14} />}
            disabled={target === null}
            loading={test.isPending}
            onClick={sendTest}
          >
            Send a test
          </Button>
          <Text size="xs" c="dimmed">
            One profile of the parent segment, marked "test": true, sent with these settings. Webhooks only.
          </Text>
        </Group>
      )}
      {test.data && <TestAnswer result={test.data} />}
      {test.error && (
        <Alert color="red" p="xs" role="status" title="Test send">
          {test.error.message}
        </Alert>
      )}
    </Stack>
  );
}
