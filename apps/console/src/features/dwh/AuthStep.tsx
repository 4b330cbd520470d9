import {
  Alert,
  Button,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryError } from '../../components/QueryError';
import {
  authenticationsQueryOptions,
  type NewAuthentication,
  useCreateAuthentication,
  useTestAuthentication,
} from './api';

export interface AuthStepProps {
  authId: number | null;
  onChange: (id: number | null) => void;
}

const EMPTY: NewAuthentication = {
  name: '',
  host: '',
  port: 5432,
  database: '',
  user: '',
  password: '',
  ssl_mode: 'require',
};

/** Step 1: pick a stored warehouse authentication or store a new one, and test that it connects. */
export function AuthStep({ authId, onChange }: AuthStepProps) {
  const list = useQuery(authenticationsQueryOptions());
  const create = useCreateAuthentication();
  const test = useTestAuthentication();
  const [form, setForm] = useState<NewAuthentication>(EMPTY);
  const set = <K extends keyof NewAuthentication>(key: K, value: NewAuthentication[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  if (list.isError)
    return <QueryError title="Authentications could not be loaded" error={list.error} onRetry={() => list.refetch()} />;
  const options = (list.data ?? []).map((a) => ({
    value: String(a.id),
    label: `${a.name} (${a.user}@${a.host}:${a.port}/${a.database})`,
  }));

  return (
    <Stack gap="md">
      <Select
        label="Authentication"
        description={options.length ? 'Choose a stored authentication' : 'None stored yet: add one below'}
        data={options}
        value={authId === null ? null : String(authId)}
        onChange={(v) => {
          test.reset();
          onChange(v === null ? null : Number(v));
        }}
        clearable
      />
      <form
        aria-label="New authentication"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(form, {
            onSuccess: (a) => {
              setForm(EMPTY);
              test.reset();
              onChange(a.id);
            },
          });
        }}
      >
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Or add a PostgreSQL authentication
          </Text>
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
            <TextInput
              label="Database"
              value={form.database}
              onChange={(e) => set('database', e.currentTarget.value)}
            />
            <TextInput label="User" value={form.user} onChange={(e) => set('user', e.currentTarget.value)} />
            <PasswordInput
              label="Password"
              value={form.password}
              onChange={(e) => set('password', e.currentTarget.value)}
            />
            <Select
              label="SSL mode"
              data={['require', 'verify-full', 'disable']}
              value={form.ssl_mode}
              allowDeselect={false}
              onChange={(v) => set('ssl_mode', (v ?? 'require') as NewAuthentication['ssl_mode'])}
            />
          </SimpleGrid>
          {create.isError && (
            <Alert color="red" title="Not saved">
              {create.error.message}
            </Alert>
          )}
          <Group>
            <Button type="submit" variant="light" loading={create.isPending}>
              Save authentication
            </Button>
          </Group>
        </Stack>
      </form>
      <Group>
        <Button
          variant="default"
          disabled={authId === null}
          loading={test.isPending}
          onClick={() => authId !== null && test.mutate(authId)}
        >
          Test connection
        </Button>
      </Group>
      {test.data && (
        <Alert color={test.data.ok ? 'teal' : 'red'} title={test.data.ok ? 'Connection works' : 'Connection failed'}>
          {test.data.message}
        </Alert>
      )}
      {test.isError && (
        <Alert color="red" title="Test failed">
          {test.error.message}
        </Alert>
      )}
    </Stack>
  );
}
