import { Anchor, Code, Table, Text } from '@mantine/core';
import type { SessionAttempt } from '@svc/contracts';
import { Link } from 'react-router';
import { bulkLoadPath, formatCount, formatDuration, tablePath } from '../data';
import { StatusBadge } from './StatusBadge';

/** "re-sync from scratch on schedule", "run by hand", … */
export const runLabel = (a: Pick<SessionAttempt, 'trigger' | 'resync'>) =>
  `${a.resync ? 're-sync from scratch' : 'run'} ${a.trigger === 'schedule' ? 'on schedule' : 'by hand'}`;

/** Each table of a run: its target, status, rows, duration and error, and the bulk load session behind it. */
export function RunTables({ attempt, database }: { attempt: SessionAttempt; database: string }) {
  return (
    <Table aria-label={`Tables of run ${attempt.attempt_id}`} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Table</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Rows</Table.Th>
          <Table.Th>Duration</Table.Th>
          <Table.Th>Bulk load</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {attempt.tables.map((t) => (
          <Table.Tr key={t.job_id}>
            <Table.Td>
              <Anchor component={Link} to={tablePath(database, t.target_table)}>
                {database}.{t.target_table}
              </Anchor>
              {t.error && (
                <Text size="sm" c="red">
                  {t.error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <StatusBadge status={t.status} />
            </Table.Td>
            <Table.Td>{formatCount(t.records)}</Table.Td>
            <Table.Td>{formatDuration(t.duration_seconds)}</Table.Td>
            <Table.Td>
              <Anchor component={Link} to={bulkLoadPath(t.bulk_load_name)}>
                <Code>{t.bulk_load_name}</Code>
              </Anchor>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
