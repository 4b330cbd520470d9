import { Alert, Button, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { Authentication, SslMode } from '@svc/contracts';
import { useState } from 'react';
import { type AuthenticationSettings, useSaveAuthentication, useTestSettings } from './authApi';

export interface AuthenticationFormProps {
  /** The stored authentication to edit; absent for a new one. */
  editing?: Authentication;
  onSaved: (saved: Authentication) => void;
  /** The submit button's words. */
  saveLabel?: string;
}

const SSL_MODES: { value: SslMode; label: string }[] = [
  { value: 'prefer', label: 'prefer (default): TLS when the server offers it' },
  { value: 'require', label: 'require: always TLS, certificate not checked' },
  { value: 'verify-full', label: 'verify-full: TLS, certificate and host name checked' },
  { value: 'disable', label: 'disable: never TLS' },
];

const settingsOf = (a?: Authentication): AuthenticationSettings => ({
  name: a?.name ?? '',
  host: a?.host ?? '',
  port: a?.port ?? 5432,
  database: a?.database ?? '',
  user: a?.user ?? '',
  password: '',
  ssl_mode: a?.ssl_mode ?? 'prefer',
});

/**
 * The settings of a PostgreSQL authentication, with "Test connection" on what is typed before anything is
 * saved; when editing, an empty password keeps the stored one.
 */
export function AuthenticationForm({ editing, onSaved, saveLabel = 'Save authentication' }: AuthenticationFormProps) {
  const id = editing?.id ?? null;
  const [form, setForm] = useState<AuthenticationSettings>(() => settingsOf(editing));
  const save = useSaveAuthentication(id);
  const test = useTestSettings(id);
  const set = <K extends keyof AuthenticationSettings>(key: K, value: AuthenticationSettings[K]) => {
    test.reset();
    setForm((f) => ({ ...f, [key]: value }));
  };
  const label = editing ? `Edit authentication ${editing.name}` : 'New authentication';

  return (
    <form
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(form, {
          onSuccess: (saved) => {
            if (!editing) setForm(settingsOf());
            test.reset();
            onSaved(saved);
          },
        });
      }}
    >
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Name" value={form.name} onChange={(e) => set('name', e.currentTarget.value)} />
          <TextInput label="Host" value={form.host} onChange={(e) => set('host', e.currentTarget.value)} />
          <NumberInput
            label="Port"
            min={1}
            max={65535}
            value={form.port}
            onChange={(v) => set('port', Number(v) || 5432)}
          />
          <TextInput label="Database" value={form.database} onChange={(e) => set('database', e.currentTarget.value)} />
          <TextInput label="User" value={form.user} onChange={(e) => set('user', e.currentTarget.value)} />
          <PasswordInput
            label="Password"
            placeholder={editing?.password_set ? 'unchanged' : undefined}
            value={form.password}
            onChange={(e) => set('password', e.currentTarget.value)}
          />
        </SimpleGrid>
        <Select
          label="SSL mode"
          description="prefer is PostgreSQL's own default: it uses TLS when the server offers it and connects without TLS otherwise. Choose verify-full where the warehouse has a trusted certificate."
          data={SSL_MODES}
          value={form.ssl_mode}
          allowDeselect={false}
          onChange={(v) => set('ssl_mode', (v ?? 'prefer') as SslMode)}
          maw={480}
        />
        {test.data && (
          <Alert color={test.data.ok ? 'teal' : 'red'} title={test.data.ok ? 'Connection works' : 'Connection failed'}>
            {test.data.message}
          </Alert>
        )}
        {test.isError && (
          <Alert color="red" title="Connection not tested">
            {test.error.message}
          </Alert>
        )}
        {save.isError && (
          <Alert color="red" title="Not saved">
            {save.error.message}
          </Alert>
        )}
        <Group>
          <Button variant="default" loading={test.isPending} onClick={() => test.mutate(form)}>
            Test connection
          </Button>
          <Button type="submit" variant="light" loading={save.isPending}>
            {saveLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
