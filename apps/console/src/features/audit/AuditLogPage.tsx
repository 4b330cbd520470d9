import { Alert, Badge, Button, Code, Group, Paper, Table, Text } from '@mantine/core';
import { type AuditEvent, type AuditFilter, auditActionLabels, type Me } from '@svc/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { AuditFilters } from './AuditFilters';
import { auditLogQueryOptions } from './api';

export interface AuditLogPageProps {
  currentUser: Me;
}

const DESCRIPTION =
  'Every administrative and security event: users, roles and folder permissions, API keys, sign-ins and their refusals, passwords, single sign-on, warehouse connections and journeys. Entries are never changed or removed.';

const label = (action: string) => (auditActionLabels as Record<string, string>)[action] ?? action;

/** The details as `key: value` lines; nested values as JSON. */
function Details({ details }: { details: AuditEvent['details'] }) {
  const entries = Object.entries(details ?? {});
  if (entries.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" component="div" style={{ wordBreak: 'break-word' }}>
      {entries.map(([k, v]) => (
        <div key={k}>
          {k}: {typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}
        </div>
      ))}
    </Text>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Timestamp value={event.at} />
      </Table.Td>
      <Table.Td>{event.actor}</Table.Td>
      <Table.Td>
        <Text size="sm">{label(event.action)}</Text>
        <Code fz="xs">{event.action}</Code>
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
      <Table.Td maw={320}>
        <Details details={event.details} />
      </Table.Td>
    </Table.Tr>
  );
}

export function AuditLogPage({ currentUser }: AuditLogPageProps) {
  if (!currentUser.administrator) {
    return (
      <>
        <PageHeader title="Audit log" description={DESCRIPTION} />
        <Alert color="blue" title="Only administrators can read the audit log">
          You are signed in as {currentUser.email}, who is not an administrator of {currentUser.accountName}. Ask an
          administrator if you need to know who changed something.
        </Alert>
      </>
    );
  }
  return <AdminAuditLog />;
}

function AdminAuditLog() {
  const [filter, setFilter] = useState<AuditFilter>({});
  const log = useInfiniteQuery(auditLogQueryOptions(filter));
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  const filtered = Object.keys(filter).length > 0;
  return (
    <>
      <PageHeader title="Audit log" description={DESCRIPTION} />
      <AuditFilters filter={filter} onChange={setFilter} />
      <Paper withBorder radius="md" p="xs">
        {log.isPending ? (
          <CenteredLoader label="Loading the audit log" />
        ) : log.isError ? (
          <QueryError title="The audit log could not be loaded" error={log.error} onRetry={() => log.refetch()} />
        ) : events.length === 0 ? (
          <Text c="dimmed" p="md">
            {filtered ? 'No entry matches these filters.' : 'Nothing recorded yet.'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={960} type="native">
            <Table verticalSpacing="sm" aria-label="Audit events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Who</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Details</Table.Th>
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
