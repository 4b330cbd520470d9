import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryError } from '../../components/QueryError';
import { AuthenticationForm } from './AuthenticationForm';
import { authenticationsQueryOptions, useTestAuthentication } from './authApi';

export interface AuthStepProps {
  authId: number | null;
  onChange: (id: number | null) => void;
}

/** Step 1: pick a stored warehouse authentication or store a new one (tested before it is saved). */
export function AuthStep({ authId, onChange }: AuthStepProps) {
  const list = useQuery(authenticationsQueryOptions());
  const test = useTestAuthentication();

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
      <Group>
        <Button
          variant="default"
          disabled={authId === null}
          loading={test.isPending}
          onClick={() => authId !== null && test.mutate(authId)}
        >
          Test the chosen authentication
        </Button>
        <Anchor component={Link} to="/data/sync/authentications" size="sm">
          Manage authentications
        </Anchor>
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
      <Text fw={600} size="sm">
        Or add a PostgreSQL authentication
      </Text>
      <AuthenticationForm
        onSaved={(a) => {
          test.reset();
          onChange(a.id);
        }}
      />
    </Stack>
  );
}
