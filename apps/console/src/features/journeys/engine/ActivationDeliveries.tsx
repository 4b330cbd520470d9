import { Anchor, Badge, Button, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import type { DeliveryStatusFilter } from '../api';
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
const PAGE = 50;

const STATUS_CHOICES: Array<{ value: DeliveryStatusFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'success', label: 'Delivered' },
  { value: 'error', label: 'Failed' },
];

/**
 * Deliveries of one activation, newest first: time, profiles, status, response code, target, error, CSV file.
 * The full list filters by status and loads older deliveries a page at a time; the side panel shows the latest.
 */
export function ActivationDeliveries(props: ActivationDeliveriesProps) {
  const { journeyId, activationId, activationName, canDownload, compact = false } = props;
  const [status, setStatus] = useState<DeliveryStatusFilter>('all');
  const deliveries = useInfiniteQuery(
    deliveriesQuery(journeyId, activationId, compact ? 'all' : status, compact ? COMPACT_ROWS : PAGE),
  );
  const filter = compact ? null : (
    <SegmentedControl
      size="xs"
      aria-label={`Which deliveries of ${activationName}`}
      data={STATUS_CHOICES}
      value={status}
      onChange={(value) => setStatus(value as DeliveryStatusFilter)}
      style={{ alignSelf: 'flex-start' }}
    />
  );
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
  const rows = deliveries.data.pages.flatMap((page) => page.data);
  if (rows.length === 0) {
    return (
      <Stack gap={4}>
        {status !== 'all' && filter}
        <Text size="sm" c="dimmed">
          {status === 'all'
            ? "No deliveries yet: queued profiles go out on the activation's schedule."
            : `No ${status === 'success' ? 'successful' : 'failed'} deliveries.`}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      {filter}
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
      {compact && deliveries.hasNextPage && (
        <Text size="xs" c="dimmed">
          The latest {COMPACT_ROWS}; the Deliveries tab lists them all.
        </Text>
      )}
      {!compact && deliveries.hasNextPage && (
        <Button
          variant="subtle"
          size="xs"
          style={{ alignSelf: 'flex-start' }}
          loading={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          Show {PAGE} older deliveries
        </Button>
      )}
    </Stack>
  );
}
