import { Alert, Button, Group, Modal, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ActivationResource } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { connectionsQueryOptions } from '../../lib/resources';
import { ActivationTarget, connectionNameFor, emptyTarget, type TargetDraft, targetUrl } from './ActivationTarget';
import { activationFormProblems } from './activationForm';
import type { ActivationInput } from './api';
import { useCreateConnection, useSaveActivation } from './api';
import { connectorConfigOf, webhookDraftOf } from './webhookDraft';

export interface ActivationModalProps {
  journeyId: string;
  /** The activation to edit, or null to create one. */
  activation: ActivationResource | null;
  columns: string[];
  paused: boolean;
  onClose(): void;
  /** Called with the stored activation's id (so the step can point to it). */
  onSaved(activationId: string): void;
}

/**
 * Creates or edits the activation an activation step triggers: where it sends (a saved connection, or a
 * webhook, table or CSV file made here, with a test send), its schedule and columns.
 */
export function ActivationModal({ journeyId, activation, columns, paused, onClose, onSaved }: ActivationModalProps) {
  const current = activation?.attributes.syndication_params;
  const [params, setParams] = useState<ActivationInput>({
    name: current?.name ?? '',
    description: current?.description ?? null,
    connectionId: current?.connectionId ?? '',
    // A new activation sends at each journey run: profiles reaching the step do not wait for a time of day.
    scheduleType: current?.scheduleType ?? 'none',
    scheduleOption: current?.scheduleOption ?? null,
    timezone: current?.timezone ?? 'UTC',
    columns: current?.columns ?? [],
    allColumns: current?.allColumns ?? false,
  });
  const save = useSaveActivation(journeyId);
  const createConnection = useCreateConnection();
  const connections = useQuery(connectionsQueryOptions());
  const [target, setTarget] = useState<TargetDraft>(() => emptyTarget(activation ? 'existing' : 'webhook'));
  const [webhook, setWebhook] = useState(() => webhookDraftOf(current?.connectorConfig));
  const connectionNames = (connections.data ?? []).map((r) => r.name);
  const savedUrl = connections.data?.find((r) => r.name === params.connectionId)?.url ?? '';
  const webhookShown = target.kind === 'webhook' || (target.kind === 'existing' && /^https?:/i.test(savedUrl));
  if (params.connectionId && !connectionNames.includes(params.connectionId)) connectionNames.push(params.connectionId);
  // The spec: an activation's schedule cannot change while its journey is paused.
  const scheduleLocked = paused && activation !== null;
  const set = (patch: Partial<ActivationInput>) => setParams((p) => ({ ...p, ...patch }));
  const templated = webhookShown && webhook.bodyTemplate.trim() !== '';
  const problems = activationFormProblems(params, templated);
  // Problems show once the user tried to submit, so an empty new form is not all red.
  const [tried, setTried] = useState(false);
  const shown = tried ? problems : {};
  return (
    <Modal opened onClose={onClose} title={activation ? 'Edit activation' : 'Create activation'} size="lg">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (Object.keys(problems).length > 0) return;
          // Webhook settings go with a webhook target only; other targets keep what was stored.
          const connectorConfig = webhookShown
            ? connectorConfigOf(webhook, current?.connectorConfig)
            : (current?.connectorConfig ?? {});
          const saveWith = (connectionId: string) =>
            save.mutate(
              { activationId: activation?.id ?? null, params: { ...params, connectionId, connectorConfig } },
              { onSuccess: (answer) => onSaved(answer.data.id) },
            );
          const url = targetUrl(target);
          if (target.kind === 'existing' || url === null) {
            saveWith(params.connectionId);
            return;
          }
          const name = connectionNameFor(params.name);
          createConnection.mutate(
            { name, url },
            {
              onSuccess: () => {
                set({ connectionId: name });
                setTarget(emptyTarget('existing'));
                saveWith(name);
              },
            },
          );
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Activation name"
            required
            error={shown.name}
            value={params.name}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <ActivationTarget
            journeyId={journeyId}
            draft={target}
            onDraft={setTarget}
            connections={connectionNames}
            connectionId={params.connectionId}
            onConnection={(connectionId) => set({ connectionId })}
            savedIsWebhook={/^https?:/i.test(savedUrl)}
            webhook={webhook}
            onWebhook={setWebhook}
            columns={columns}
            activationId={activation?.id ?? null}
          />
          {scheduleLocked && (
            <Alert color="yellow" title="Schedule locked while paused">
              The journey is paused, so this activation's schedule cannot change. Resume the journey to change it.
            </Alert>
          )}
          <Group grow>
            <Select
              label="Schedule"
              data={[
                { value: 'none', label: 'Promptly, at each journey run' },
                { value: 'hourly', label: 'Hourly' },
                { value: 'daily', label: 'Daily' },
              ]}
              value={params.scheduleType}
              allowDeselect={false}
              disabled={scheduleLocked}
              onChange={(value) => {
                const scheduleType = (value ?? 'none') as ActivationInput['scheduleType'];
                set({
                  scheduleType,
                  scheduleOption: scheduleType === 'none' ? null : (params.scheduleOption ?? '09:00'),
                });
              }}
              comboboxProps={{ withinPortal: true }}
            />
            <TextInput
              label="Time of day (HH:MM)"
              value={params.scheduleOption ?? ''}
              error={shown.scheduleOption}
              disabled={scheduleLocked || params.scheduleType === 'none'}
              onChange={(e) => set({ scheduleOption: e.currentTarget.value || null })}
            />
            <TextInput
              label="Time zone"
              value={params.timezone}
              disabled={scheduleLocked}
              onChange={(e) => set({ timezone: e.currentTarget.value })}
            />
          </Group>
          {templated ? (
            <Text size="sm" c="dimmed">
              The body template decides the fields each request sends.
            </Text>
          ) : (
            <>
              <Switch
                label="Send every column"
                checked={params.allColumns}
                onChange={(e) => set({ allColumns: e.currentTarget.checked })}
              />
              {!params.allColumns && (
                <MultiSelect
                  label="Columns to send"
                  data={columns}
                  value={params.columns}
                  searchable
                  error={shown.columns}
                  onChange={(value) => set({ columns: value })}
                  comboboxProps={{ withinPortal: true }}
                />
              )}
            </>
          )}
          {createConnection.error && <Alert color="red">{createConnection.error.message}</Alert>}
          {save.error && <Alert color="red">{save.error.message}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending || createConnection.isPending}>
              {activation ? 'Save activation' : 'Create activation'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
