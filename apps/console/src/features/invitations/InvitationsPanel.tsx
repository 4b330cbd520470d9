import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { Invitation } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { CenteredLoader } from '../../components/CenteredLoader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { invitationsQueryOptions, useRevokeInvitation } from './api';

/** Open invitations of the account: who was invited, by whom, until when; each can be revoked. */
export function InvitationsPanel() {
  const invitations = useQuery(invitationsQueryOptions());
  const revoke = useRevokeInvitation();
  const confirmRevoke = (invitation: Invitation) =>
    modals.openConfirmModal({
      title: 'Revoke invitation',
      children: <Text size="sm">Revoke the invitation of {invitation.email}? Its link stops working at once.</Text>,
      labels: { confirm: 'Revoke invitation', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        revoke.mutate(invitation.id, {
          onSuccess: () =>
            notifications.show({ color: 'teal', message: `The invitation of ${invitation.email} was revoked.` }),
          onError: (error) =>
            notifications.show({ color: 'red', title: 'The invitation was not revoked', message: error.message }),
        }),
    });

  if (invitations.isPending) return <CenteredLoader label="Loading invitations" />;
  if (invitations.isError) {
    return (
      <QueryError
        title="The invitations could not be loaded"
        error={invitations.error}
        onRetry={() => invitations.refetch()}
      />
    );
  }
  if (invitations.data.length === 0) return null;
  return (
    <Paper withBorder radius="md" p="md" mt="lg" component="section" aria-labelledby="invitations-title">
      <Title order={2} size="h4" id="invitations-title" mb="xs">
        Invitations
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Invited by</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.data.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td>{i.email}</Table.Td>
              <Table.Td>{i.administrator ? 'Administrator' : 'Member'}</Table.Td>
              <Table.Td>{i.invitedBy}</Table.Td>
              <Table.Td>
                <Timestamp value={i.expiresAt} />
              </Table.Td>
              <Table.Td>
                <Badge color={i.state === 'pending' ? 'blue' : 'gray'} variant="light">
                  {i.state === 'pending' ? (i.emailedAt ? 'Pending, e-mailed' : 'Pending') : 'Expired'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => confirmRevoke(i)}
                    aria-label={`Revoke the invitation of ${i.email}`}
                  >
                    Revoke
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
