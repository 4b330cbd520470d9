import { Anchor, Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { hasFile } from './deliveryFormat';
import { deliveriesQuery, deliveryFileUrl } from './engineQueries';

export interface ActivationDeliveriesProps {
  journeyId: string;
  activationId: string;
  activationName: string;
  /** Whether CSV files may be downloaded (Full Control). */
  canDownload: boolean;
  /** The side panel shows the latest few in fewer columns. */
  compact?: boolean;
}

const COMPACT_ROWS = 5;

/** Deliveries of one activation, newest first: time, profiles, status, response code, target, error, CSV file. */
export function ActivationDeliveries(props: ActivationDeliveriesProps) {
  const { journeyId, activationId, activationName, canDownload, compact = false } = props;
  const deliveries = useQuery(deliveriesQuery(journeyId, activationId));
  if (deliveries.isPending) {
    return (
      <Text size="sm" c="dimmed">
        Loading deliveries…
      </Text>
    );
  }
  if (deliveries.error) {
    return <QueryError title="Deliveries could not be loaded" error={deliveries.error} />;
  }
  if (deliveries.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No deliveries yet: queued profiles go out on the activation's schedule.
      </Text>
    );
  }
  const rows = compact ? deliveries.data.slice(0, COMPACT_ROWS) : deliveries.data;
  return (
    <Stack gap={4}>
      <Table.ScrollContainer minWidth={compact ? 0 : 720}>
        <Table striped verticalSpacing={4} fz="sm" aria-label={`Deliveries of ${activationName}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th ta="right">Profiles</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Response</Table.Th>
              {!compact && <Table.Th>Target</Table.Th>}
              {!compact && <Table.Th>Error</Table.Th>}
              <Table.Th>File</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Timestamp value={d.at} />
                </Table.Td>
                <Table.Td ta="right">{d.profiles.toLocaleString('en')}</Table.Td>
                <Table.Td>
                  <Badge color={d.status === 'success' ? 'teal' : 'red'} variant="light" title={d.error ?? undefined}>
                    {d.status === 'success' ? 'Delivered' : 'Failed'}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" title="HTTP status code the webhook answered">
                  {d.responseCode ?? '—'}
                </Table.Td>
                {!compact && <Table.Td>{d.target ?? '—'}</Table.Td>}
                {!compact && (
                  <Table.Td c={d.error ? 'red.8' : 'dimmed'} style={{ maxWidth: 320 }}>
                    {d.error ?? '—'}
                  </Table.Td>
                )}
                <Table.Td>
                  {hasFile(d) && canDownload ? (
                    <Anchor href={deliveryFileUrl(journeyId, activationId, d.id)} download size="sm">
                      Download CSV
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {compact && deliveries.data.length > COMPACT_ROWS && (
        <Text size="xs" c="dimmed">
          The latest {COMPACT_ROWS} of {deliveries.data.length}; the Deliveries tab lists them all.
        </Text>
      )}
    </Stack>
  );
}
