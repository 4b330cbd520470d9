import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { tablesQueryOptions } from '../catalogApi';
import { type WizardAttribute, type WizardState, wizardKey } from './wizardState';

export interface AttributesStepProps {
  state: WizardState;
  onChange: (next: WizardState) => void;
}

const choose = (label: string, values: string[]) => [
  { value: '', label },
  ...values.map((v) => ({ value: v, label: v })),
];

/** Attributes: one value per profile, from the master table's columns or from another table joined by key. */
export function AttributesStep({ state, onChange }: AttributesStepProps) {
  const tables = useQuery(tablesQueryOptions(state.database));
  const master = tables.data?.find((t) => t.name === state.table);
  const [other, setOther] = useState({ table: '', foreignKey: '', column: '' });
  const otherTable = tables.data?.find((t) => t.name === other.table);
  const setAttributes = (attributes: WizardAttribute[]) => onChange({ ...state, attributes });
  const onMaster = (column: string) =>
    state.attributes.find((a) => a.table === state.table && a.column === column && a.foreignKey === null);

  const toggleMaster = (column: string, checked: boolean) => {
    const existing = onMaster(column);
    if (checked && !existing) {
      setAttributes([
        ...state.attributes,
        { key: wizardKey(), name: column, table: state.table, column, foreignKey: null },
      ]);
    } else if (!checked && existing) {
      setAttributes(state.attributes.filter((a) => a !== existing));
    }
  };

  const addOther = () => {
    const taken = new Set(state.attributes.map((a) => a.name));
    const name = taken.has(other.column) ? `${other.table}_${other.column}` : other.column;
    setAttributes([
      ...state.attributes,
      { key: wizardKey(), name, table: other.table, column: other.column, foreignKey: other.foreignKey },
    ]);
    setOther({ ...other, column: '' });
  };

  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={3} size="h5">
          Columns of {state.table}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          {(master?.columns ?? []).map((c) => (
            <Checkbox
              key={c.name}
              label={c.name}
              description={c.type}
              checked={onMaster(c.name) !== undefined}
              onChange={(e) => toggleMaster(c.name, e.currentTarget.checked)}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <Stack gap="xs">
        <Title order={3} size="h5">
          From another table
        </Title>
        <Group align="flex-end" gap="sm">
          <NativeSelect
            label="Attribute table"
            data={choose(
              'Choose a table',
              (tables.data ?? []).filter((t) => t.name !== state.table).map((t) => t.name),
            )}
            value={other.table}
            onChange={(e) => setOther({ table: e.currentTarget.value, foreignKey: '', column: '' })}
          />
          <NativeSelect
            label={`Column matching ${state.parentKey}`}
            disabled={!otherTable}
            data={choose(
              'Choose',
              (otherTable?.columns ?? []).map((c) => c.name),
            )}
            value={other.foreignKey}
            onChange={(e) => setOther({ ...other, foreignKey: e.currentTarget.value })}
          />
          <NativeSelect
            label="Attribute column"
            disabled={!otherTable}
            data={choose(
              'Choose',
              (otherTable?.columns ?? []).map((c) => c.name),
            )}
            value={other.column}
            onChange={(e) => setOther({ ...other, column: e.currentTarget.value })}
          />
          <Button variant="default" disabled={!other.table || !other.foreignKey || !other.column} onClick={addOther}>
            Add attribute
          </Button>
        </Group>
      </Stack>
      {state.attributes.length === 0 ? (
        <Text c="dimmed" size="sm">
          No attributes yet. Attributes are optional, but segments filter on them.
        </Text>
      ) : (
        <Table aria-label="Chosen attributes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Attribute name</Table.Th>
              <Table.Th>Source</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {state.attributes.map((a) => (
              <Table.Tr key={a.key}>
                <Table.Td>
                  <TextInput
                    aria-label={`Name of the attribute from ${a.table}.${a.column}`}
                    value={a.name}
                    onChange={(e) => {
                      const name = e.currentTarget.value;
                      setAttributes(state.attributes.map((x) => (x.key === a.key ? { ...x, name } : x)));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {a.table}.{a.column}
                    {a.foreignKey ? ` (joined on ${a.foreignKey})` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove the attribute ${a.name}`}
                    onClick={() => setAttributes(state.attributes.filter((x) => x.key !== a.key))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
