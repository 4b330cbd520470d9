import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { notificationsQuery } from './engineQueries';

export interface NotificationsOutboxProps {
  journeyId: string;
  activationName(activationId: string): string;
}

/** Messages the activations' notifyOn / e-mail recipients produced, newest first (no mail is sent). */
export function NotificationsOutbox({ journeyId, activationName }: NotificationsOutboxProps) {
  const outbox = useQuery(notificationsQuery(journeyId));
  if (outbox.isPending) {
    return (
      <Text size="sm" c="dimmed">
        Loading notifications…
      </Text>
    );
  }
  if (outbox.error) return <QueryError title="Notifications could not be loaded" error={outbox.error} />;
  if (outbox.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No notifications. An activation writes one here after a delivery when it has e-mail recipients and “notify on”
        set.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing={6} fz="sm" aria-label="Notifications outbox">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Activation</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Subject</Table.Th>
            <Table.Th>Message</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outbox.data.map((n) => (
            <Table.Tr key={n.id}>
              <Table.Td>
                <Timestamp value={n.createdAt} />
              </Table.Td>
              <Table.Td>{activationName(n.activationId)}</Table.Td>
              <Table.Td>{n.recipients.join(', ')}</Table.Td>
              <Table.Td fw={500}>{n.subject}</Table.Td>
              <Table.Td>{n.body}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
