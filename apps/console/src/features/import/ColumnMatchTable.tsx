import { Badge, Table, Text } from '@mantine/core';
import type { ColumnMatch } from './model/match';

const BADGES = {
  new: { color: 'blue', label: 'new column' },
  same: { color: 'teal', label: 'matches' },
  conflict: { color: 'orange', label: 'type conflict' },
} as const;

/** The wizard's columns against the target table's: what is added, what matches, what conflicts. */
export function ColumnMatchTable({ matches, table }: { matches: ColumnMatch[]; table: string }) {
  const conflicts = matches.filter((m) => m.status === 'conflict').length;
  return (
    <>
      <Table aria-label="Columns in the target table" verticalSpacing={4} maw={760}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column</Table.Th>
            <Table.Th>Import type</Table.Th>
            <Table.Th>In {table}</Table.Th>
            <Table.Th>What happens</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {matches.map((m) => (
            <Table.Tr key={m.name}>
              <Table.Td>{m.name}</Table.Td>
              <Table.Td>{m.type}</Table.Td>
              <Table.Td>{m.existing ?? '—'}</Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color={BADGES[m.status].color} mr="xs">
                  {BADGES[m.status].label}
                </Badge>
                <Text span size="xs" c={m.status === 'conflict' ? 'orange' : 'dimmed'}>
                  {m.note}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {conflicts > 0 && (
        <Text size="sm" c="orange" role="alert">
          {conflicts} column{conflicts === 1 ? ' has' : 's have'} another type in {table}: values that do not fit may be
          stored differently from the rest of the column. Go back to the columns step to change the type or the name.
        </Text>
      )}
    </>
  );
}
