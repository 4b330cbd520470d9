import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Authentication } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { AuthenticationForm } from './AuthenticationForm';
import { authenticationsQueryOptions, useDeleteAuthentication } from './authApi';
import { FeatureGate } from './FeatureGate';

/** Deleting is refused while a sync uses the authentication; the server's message names them. */
function DeleteAuthenticationModal({ target, onClose }: { target: Authentication | null; onClose: () => void }) {
  const remove = useDeleteAuthentication();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Modal opened={target !== null} onClose={close} title={`Delete authentication ${target?.name ?? ''}`}>
      <Stack>
        <Text size="sm">
          Delete the stored connection <strong>{target?.name}</strong> and its password? Syncs cannot use it afterwards.
        </Text>
        {remove.error && (
          <Alert color="red" title="The authentication was not deleted">
            {remove.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              target &&
              remove.mutate(target.id, {
                onSuccess: () => {
                  notifications.show({ color: 'teal', message: `Authentication ${target.name} was deleted.` });
                  close();
                },
              })
            }
          >
            Delete authentication
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Authentications({
  onEdit,
  onDelete,
}: {
  onEdit: (a: Authentication) => void;
  onDelete: (a: Authentication) => void;
}) {
  const list = useQuery(authenticationsQueryOptions());
  if (list.isPending) return <CenteredLoader label="Loading authentications" />;
  if (list.isError)
    return <QueryError title="Authentications could not be loaded" error={list.error} onRetry={() => list.refetch()} />;
  if (list.data.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        No authentications are stored yet.
      </Text>
    );
  }
  return (
    <Table verticalSpacing="sm" aria-label="Warehouse authentications">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Connection</Table.Th>
          <Table.Th>SSL mode</Table.Th>
          <Table.Th>Changed</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.data.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>{a.name}</Table.Td>
            <Table.Td>
              {a.user}@{a.host}:{a.port}/{a.database}
              {!a.password_set && (
                <Text size="xs" c="dimmed">
                  no password stored
                </Text>
              )}
            </Table.Td>
            <Table.Td>{a.ssl_mode}</Table.Td>
            <Table.Td>
              <Timestamp value={a.updated_at} />
            </Table.Td>
            <Table.Td>
              <Group gap="xs" justify="flex-end">
                <Button size="xs" variant="default" onClick={() => onEdit(a)} aria-label={`Edit ${a.name}`}>
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => onDelete(a)}
                  aria-label={`Delete ${a.name}`}
                >
                  Delete
                </Button>
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Stored warehouse connections: add, edit (tested before saving) and delete. */
export function AuthenticationsPage() {
  const [editing, setEditing] = useState<Authentication | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Authentication | null>(null);
  const saved = (a: Authentication) => {
    notifications.show({ color: 'teal', message: `Authentication ${a.name} was saved.` });
    setEditing(null);
  };
  return (
    <FeatureGate>
      <PageHeader
        title="Warehouse authentications"
        description={
          <>
            The PostgreSQL connections{' '}
            <Anchor component={Link} to="/data/sync">
              warehouse syncs
            </Anchor>{' '}
            read from. Passwords are stored encrypted and never shown again.
          </>
        }
        action={<Button onClick={() => setEditing('new')}>New authentication</Button>}
      />
      <Paper withBorder radius="md" p="xs">
        <Authentications onEdit={setEditing} onDelete={setDeleting} />
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="xl"
        title={editing === 'new' || editing === null ? 'New authentication' : `Edit ${editing.name}`}
      >
        {editing !== null && (
          <AuthenticationForm
            key={editing === 'new' ? 'new' : editing.id}
            editing={editing === 'new' ? undefined : editing}
            onSaved={saved}
          />
        )}
      </Modal>
      <DeleteAuthenticationModal target={deleting} onClose={() => setDeleting(null)} />
    </FeatureGate>
  );
}
