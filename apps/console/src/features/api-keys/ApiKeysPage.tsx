import { Button, Group, NativeSelect, Paper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ConsoleApiKey } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { meQueryOptions } from '../auth';
import { usersQueryOptions } from '../users';
import { ApiKeysTable } from './ApiKeysTable';
import { apiKeysQueryOptions, type KeyOwner, useRevokeApiKey } from './api';
import { CreateApiKeyModal, type CreatedKey } from './CreateApiKeyModal';
import { NewApiKeyModal } from './NewApiKeyModal';

/** Administrators choose whose keys to see: theirs, one user's, or everyone's. */
function OwnerFilter({ owner, onChange }: { owner: KeyOwner; onChange: (owner: KeyOwner) => void }) {
  const users = useQuery(usersQueryOptions());
  const data = [
    { value: 'mine', label: 'Your keys' },
    { value: 'all', label: 'Everyone’s keys' },
    ...(users.data ?? []).map((u) => ({ value: String(u.id), label: `${u.name} (${u.email})` })),
  ];
  return (
    <NativeSelect
      label="Keys of"
      data={data}
      value={String(owner)}
      w={320}
      onChange={(e) => {
        const v = e.currentTarget.value;
        onChange(v === 'mine' || v === 'all' ? v : Number(v));
      }}
    />
  );
}

export function ApiKeysPage() {
  const me = useQuery(meQueryOptions());
  const [owner, setOwner] = useState<KeyOwner>('mine');
  const shown: KeyOwner = owner === me.data?.id ? 'mine' : owner;
  const keys = useQuery(apiKeysQueryOptions(shown));
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const confirmRevoke = (key: ConsoleApiKey) =>
    modals.openConfirmModal({
      title: 'Revoke API key',
      children: (
        <Text size="sm">
          Revoke the key <strong>{key.name}</strong> ({key.masked}) of {key.ownerEmail}? Programs that use it are
          refused from now on. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Revoke key', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(key.id, {
          onSuccess: () => notifications.show({ color: 'teal', message: `Key ${key.masked} was revoked.` }),
          onError: (error) =>
            notifications.show({ color: 'red', title: `Key ${key.masked} was not revoked`, message: error.message }),
        }),
    });

  return (
    <>
      <PageHeader
        title="API keys"
        description="Programs call the REST API with these keys, sent as “Authorization: SVC1 <key>”. A key is shown in full only when it is created."
        action={<Button onClick={() => setCreating(true)}>Create key</Button>}
      />
      {me.data?.administrator && (
        <Group mb="md">
          <OwnerFilter owner={owner} onChange={setOwner} />
        </Group>
      )}
      <Paper withBorder radius="md" p="xs">
        {keys.isPending ? (
          <CenteredLoader label="Loading API keys" />
        ) : keys.isError ? (
          <QueryError title="The API keys could not be loaded" error={keys.error} onRetry={() => keys.refetch()} />
        ) : (
          <ApiKeysTable
            apiKeys={keys.data}
            showOwner={shown !== 'mine'}
            onRevoke={confirmRevoke}
            empty={
              shown === 'mine'
                ? 'You have no API keys. Create one to call the REST API from a program.'
                : 'No API keys here.'
            }
          />
        )}
      </Paper>
      {creating && (
        <CreateApiKeyModal
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
          }}
        />
      )}
      <NewApiKeyModal created={created} onClose={() => setCreated(null)} />
    </>
  );
}
