import { Button, Code, Paper, Table, Text, VisuallyHidden } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { ImportDropZone } from '../../import';
import { connectionsQueryOptions, useDeleteConnection } from './api';
import { CreateConnectionModal } from './CreateConnectionModal';

/** Saved result connections, their URLs with secrets masked; create and delete. */
export function ConnectionsPage() {
  const connections = useQuery(connectionsQueryOptions());
  const remove = useDeleteConnection();
  const [creating, setCreating] = useState(false);

  const confirmDelete = (name: string) =>
    modals.openConfirmModal({
      title: 'Delete result connection',
      children: (
        <Text size="sm">
          Delete the connection <strong>{name}</strong>? Queries that send results to it will fail.
        </Text>
      ),
      labels: { confirm: 'Delete connection', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(name, {
          onSuccess: () => notifications.show({ color: 'teal', message: `Connection ${name} was deleted.` }),
          onError: (error) =>
            notifications.show({ color: 'red', title: `Connection ${name} was not deleted`, message: error.message }),
        }),
    });

  return (
    <ImportDropZone>
      <PageHeader
        title="Result connections"
        description="Named destinations for query results. Passwords, keys and tokens in their URLs are never shown again."
        action={<Button onClick={() => setCreating(true)}>Create connection</Button>}
      />
      <Paper withBorder radius="md" p="xs">
        {connections.isPending ? (
          <CenteredLoader label="Loading result connections" />
        ) : connections.isError ? (
          <QueryError
            title="The result connections could not be loaded"
            error={connections.error}
            onRetry={() => connections.refetch()}
          />
        ) : connections.data.length === 0 ? (
          <Text c="dimmed" py="xl" ta="center">
            There are no result connections yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640} type="native">
            <Table verticalSpacing="sm" highlightOnHover aria-label="Result connections">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {connections.data.map((c) => (
                  <Table.Tr key={c.name}>
                    <Table.Td fw={500}>{c.name}</Table.Td>
                    <Table.Td>
                      <Code style={{ wordBreak: 'break-all' }}>{c.url}</Code>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => confirmDelete(c.name)}
                        aria-label={`Delete ${c.name}`}
                      >
                        Delete
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <CreateConnectionModal opened={creating} onClose={() => setCreating(false)} />
    </ImportDropZone>
  );
}
