import { Button, Paper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ConsoleApiKey } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { ApiKeysTable } from './ApiKeysTable';
import { apiKeysQueryOptions, useRevokeApiKey } from './api';
import { CreateApiKeyModal, type CreatedKey } from './CreateApiKeyModal';
import { NewApiKeyModal } from './NewApiKeyModal';

export function ApiKeysPage() {
  const keys = useQuery(apiKeysQueryOptions());
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const confirmRevoke = (key: ConsoleApiKey) =>
    modals.openConfirmModal({
      title: 'Revoke API key',
      children: (
        <Text size="sm">
          Revoke the key <strong>{key.masked}</strong>? Programs that use it are refused from now on. This cannot be
          undone.
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
      <Paper withBorder radius="md" p="xs">
        {keys.isPending ? (
          <CenteredLoader label="Loading API keys" />
        ) : keys.isError ? (
          <QueryError title="Your API keys could not be loaded" error={keys.error} onRetry={() => keys.refetch()} />
        ) : (
          <ApiKeysTable apiKeys={keys.data} onRevoke={confirmRevoke} />
        )}
      </Paper>
      <CreateApiKeyModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
        }}
      />
      <NewApiKeyModal created={created} onClose={() => setCreated(null)} />
    </>
  );
}
