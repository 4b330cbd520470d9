import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AudienceColumnType, ParentSegment } from '@svc/contracts';
import { useQueries } from '@tanstack/react-query';
import { folderBlocker, useFolderAccess } from '../../folder-permissions';
import { useUpdateParentSegment } from '../api';
import { tablesQueryOptions } from '../catalogApi';
import { TypeSwitch } from './TypeSwitch';

export interface ColumnsPanelProps {
  record: ParentSegment;
}

/** Source column types by `db.table.column`, from the catalog (the record only says number/string/timestamp). */
function useSourceTypes(record: ParentSegment) {
  const databases = [
    ...new Set([
      record.master.parentDatabaseName,
      ...record.attributes.map((a) => a.parentDatabaseName),
      ...record.behaviors.map((b) => b.parentDatabaseName),
    ]),
  ];
  const results = useQueries({ queries: databases.map((d) => tablesQueryOptions(d)) });
  const types = new Map<string, string>();
  results.forEach((r, i) => {
    for (const t of r.data ?? []) for (const c of t.columns) types.set(`${databases[i]}.${t.name}.${c.name}`, c.type);
  });
  return (db: string, table: string, column: string) => types.get(`${db}.${table}.${column}`);
}

/** Attributes and behaviors with their types; switching a type saves the whole edited record (PUT). */
export function ColumnsPanel({ record }: ColumnsPanelProps) {
  const update = useUpdateParentSegment(record.id);
  const sourceType = useSourceTypes(record);
  const blocked = folderBlocker(
    useFolderAccess([record.rootFolderId])(record.rootFolderId),
    record.name,
    'change types',
  );

  const save = (edited: ParentSegment, what: string, type: AudienceColumnType) =>
    update.mutate(edited, {
      onSuccess: () => notifications.show({ color: 'teal', message: `${what} is now a ${type}.` }),
      onError: (error) =>
        notifications.show({ color: 'red', title: `${what} was not changed`, message: error.message }),
    });

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h4" mb="sm">
          Attributes
        </Title>
        {record.attributes.length === 0 ? (
          <Text c="dimmed" size="sm">
            This parent segment has no attributes.
          </Text>
        ) : (
          <Table aria-label="Attributes" verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Type</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {record.attributes.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td fw={500}>{a.name}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {a.parentTableName}.{a.parentColumn}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <TypeSwitch
                      label={a.name}
                      type={a.type}
                      sourceType={sourceType(a.parentDatabaseName, a.parentTableName, a.parentColumn)}
                      saving={update.isPending}
                      blocked={blocked}
                      onChange={(type) =>
                        save(
                          { ...record, attributes: record.attributes.map((x) => (x.id === a.id ? { ...x, type } : x)) },
                          `The attribute ${a.name}`,
                          type,
                        )
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {record.behaviors.map((b) => (
        <Paper key={b.id} withBorder radius="md" p="md">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              Behavior {b.name}
            </Title>
            <Group gap="xs">
              <Text size="sm" ff="monospace">
                {b.parentTableName} joined on {b.foreignKey}
              </Text>
              {b.allColumns && <Badge variant="outline">All columns</Badge>}
            </Group>
          </Group>
          <Table aria-label={`Columns of the behavior ${b.name}`} verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Column</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Type</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {b.schema.map((c) => (
                <Table.Tr key={c.parentColumn}>
                  <Table.Td fw={500}>{c.name}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {c.parentColumn}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <TypeSwitch
                      label={`${b.name}.${c.name}`}
                      type={c.type}
                      sourceType={sourceType(b.parentDatabaseName, b.parentTableName, c.parentColumn)}
                      allColumns={b.allColumns}
                      saving={update.isPending}
                      blocked={blocked}
                      onChange={(type) =>
                        save(
                          {
                            ...record,
                            behaviors: record.behaviors.map((x) =>
                              x.id === b.id
                                ? {
                                    ...x,
                                    schema: x.schema.map((y) =>
                                      y.parentColumn === c.parentColumn ? { ...y, type } : y,
                                    ),
                                  }
                                : x,
                            ),
                          },
                          `The column ${c.name} of ${b.name}`,
                          type,
                        )
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
    </Stack>
  );
}
