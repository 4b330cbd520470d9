import { Alert, Badge, Button, Code, Group, Paper, Table, Text } from '@mantine/core';
import type { AuditEvent, Me } from '@svc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { auditLogQueryOptions } from './api';

export interface AuditLogPageProps {
  currentUser: Me;
}

const DESCRIPTION = 'Changes to single sign-on and users, and every SSO sign-in with its outcome.';

function AuditRow({ event }: { event: AuditEvent }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Timestamp value={event.at} />
      </Table.Td>
      <Table.Td>{event.actor}</Table.Td>
      <Table.Td>
        <Code>{event.action}</Code>
      </Table.Td>
      <Table.Td>{event.target ?? '—'}</Table.Td>
      <Table.Td>
        <Badge color={event.outcome === 'success' ? 'teal' : 'red'} variant="light">
          {event.outcome}
        </Badge>
        {event.reason && (
          <Text size="xs" c="dimmed" mt={2}>
            {event.reason}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function AuditLogPage({ currentUser }: AuditLogPageProps) {
  if (!currentUser.administrator) {
    return (
      <>
        <PageHeader title="Audit log" description={DESCRIPTION} />
        <Alert color="blue" title="Only administrators can read the audit log" />
      </>
    );
  }
  return <AdminAuditLog />;
}

function AdminAuditLog() {
  const log = useInfiniteQuery(auditLogQueryOptions());
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <>
      <PageHeader title="Audit log" description={DESCRIPTION} />
      <Paper withBorder radius="md" p="xs">
        {log.isPending ? (
          <CenteredLoader label="Loading the audit log" />
        ) : log.isError ? (
          <QueryError title="The audit log could not be loaded" error={log.error} onRetry={() => log.refetch()} />
        ) : events.length === 0 ? (
          <Text c="dimmed" p="md">
            Nothing recorded yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720} type="native">
            <Table verticalSpacing="sm" aria-label="Audit events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((e) => (
                  <AuditRow key={e.id} event={e} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {log.hasNextPage && (
        <Group justify="center" mt="md">
          <Button variant="default" loading={log.isFetchingNextPage} onClick={() => log.fetchNextPage()}>
            Show older events
          </Button>
        </Group>
      )}
    </>
  );
}
