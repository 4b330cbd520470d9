import { Button, Progress, Table, Text } from '@mantine/core';
import { ATTEMPTS, type PartProgress } from './useUpload';

export interface PartsTableProps {
  parts: PartProgress[];
  retryable: boolean;
  onRetry: (index: number) => void;
}

const COLORS = { waiting: 'gray', uploading: 'blue', done: 'teal', failed: 'red' } as const;
const LABELS = { waiting: 'waiting', uploading: 'uploading', done: 'uploaded', failed: 'failed' } as const;
const kb = (n: number) => `${Math.max(1, Math.round(n / 1024)).toLocaleString('en-US')} KB`;

/** One row per part: its rows, size, progress bar and, when it failed, why and a retry. */
export function PartsTable({ parts, retryable, onRetry }: PartsTableProps) {
  return (
    <Table.ScrollContainer minWidth={560} maxHeight={320}>
      <Table aria-label="Parts" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Part</Table.Th>
            <Table.Th>Rows</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th w="35%">Progress</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parts.map((p) => (
            <Table.Tr key={p.index}>
              <Table.Td>
                <Text size="xs">{p.name}</Text>
              </Table.Td>
              <Table.Td>{p.rows.toLocaleString('en-US')}</Table.Td>
              <Table.Td>{kb(p.size)}</Table.Td>
              <Table.Td>
                <Progress
                  value={p.size ? (p.sent / p.size) * 100 : 0}
                  color={COLORS[p.status]}
                  aria-label={`Upload of ${p.name}: ${p.status}`}
                />
                {p.error && (
                  <Text size="xs" c={p.attempt ? 'orange' : 'red'}>
                    {p.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="xs" c={p.attempt ? 'orange' : COLORS[p.status]}>
                  {p.attempt ? `retrying (attempt ${p.attempt} of ${ATTEMPTS})` : LABELS[p.status]}
                </Text>
              </Table.Td>
              <Table.Td>
                {p.status === 'failed' && retryable && (
                  <Button size="compact-xs" variant="light" onClick={() => onRetry(p.index)}>
                    Retry {p.name}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
