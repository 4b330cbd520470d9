import { Button, Group, Paper, SegmentedControl, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { QueryError } from '../../../components/QueryError';
import { cellText, unixSecondsText } from '../shared/cellText';
import type { Column } from '../shared/format';
import { tailQueryOptions } from './api';

export interface TailPanelProps {
  database: string;
  table: string;
  columns: Column[];
}

const COUNTS = ['10', '20', '50', '100'];

/** The newest rows of a table, newest first. */
export function TailPanel({ database, table, columns }: TailPanelProps) {
  const [count, setCount] = useState('20');
  const tail = useQuery(tailQueryOptions(database, table, Number(count)));
  return (
    <section aria-labelledby="tail-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="tail-title">
          Newest rows
        </Title>
        <Group gap="sm">
          <SegmentedControl size="xs" data={COUNTS} value={count} onChange={setCount} aria-label="Rows to show" />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={tail.isFetching}
            onClick={() => tail.refetch()}
          >
            Refresh
          </Button>
        </Group>
      </Group>
      <Paper withBorder radius="md" p="xs">
        {tail.isPending ? (
          <CenteredLoader label="Loading the newest rows" />
        ) : tail.isError ? (
          <QueryError title="The newest rows could not be loaded" error={tail.error} onRetry={() => tail.refetch()} />
        ) : tail.data.length === 0 ? (
          <Text c="dimmed" py="lg" ta="center">
            This table has no rows yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={Math.min(1600, columns.length * 140)} type="native">
            <Table aria-label="Newest rows" verticalSpacing={4} striped fz="sm">
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.name} ff="monospace">
                      {c.name}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tail.data.map((row, i) => (
                  // Rows have no id; the order is fixed (newest first) for one answer.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  <Table.Tr key={i}>
                    {columns.map((c) => {
                      const value = row[c.name];
                      const text = cellText(value);
                      const time = c.name === 'time' ? unixSecondsText(value) : null;
                      return (
                        <Table.Td
                          key={c.name}
                          ff="monospace"
                          c={value === null || value === undefined ? 'dimmed' : undefined}
                          title={time ?? undefined}
                          style={{ whiteSpace: 'nowrap', maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis' }}
                        >
                          {time ? `${text} (${time})` : text}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </section>
  );
}
