import { Badge, Button, Table, Text } from '@mantine/core';
import { type FieldProfile, fitShare, numericOffer } from './model/profile';
import { COLUMN_TYPES, type ColumnPlan, type ColumnType } from './model/types';

const count = (n: number) => n.toLocaleString('en-US');
const percent = (share: number) => `${Math.floor(share * 1000) / 10} %`;

export interface KeysTableProps {
  fields: FieldProfile[];
  rows: number;
  columns: ColumnPlan[];
  timeColumn: string | null;
  onType: (source: string, type: ColumnType) => void;
}

/**
 * Every key or column found anywhere in the files: how many rows have it, where it first appears, the share
 * of cells that fit each type, and what becomes of it. Nothing is dropped without being listed here.
 */
export function KeysTable({ fields, rows, columns, timeColumn, onType }: KeysTableProps) {
  return (
    <Table.ScrollContainer minWidth={720} maxHeight={360}>
      <Table aria-label="Keys found in the files" verticalSpacing={4} stickyHeader>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Rows with a value</Table.Th>
            <Table.Th>Cells that fit each type</Table.Th>
            <Table.Th>Imported as</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((f) => {
            const plan = columns.find((c) => c.source === f.name);
            const offer = numericOffer(f);
            return (
              <Table.Tr key={f.name}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {f.name}
                  </Text>
                  {f.first.row > 1 && (
                    <Text size="xs" c="dimmed">
                      first in row {count(f.first.row)} of {f.first.file}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {count(f.filled)} of {count(rows)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{COLUMN_TYPES.map((t) => `${t} ${percent(fitShare(f, t))}`).join(' · ')}</Text>
                  {offer && plan && plan.type === 'string' && !plan.skip && (
                    <Button size="compact-xs" variant="light" mt={4} onClick={() => onType(f.name, offer)}>
                      Use {offer} for {f.name} ({percent(fitShare(f, offer))} fit)
                    </Button>
                  )}
                </Table.Td>
                <Table.Td>
                  {f.name === timeColumn ? (
                    <Badge variant="light">the time</Badge>
                  ) : plan?.skip ? (
                    <Badge variant="light" color="gray">
                      left out
                    </Badge>
                  ) : (
                    <Text size="sm">
                      {plan?.name} ({plan?.type})
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
