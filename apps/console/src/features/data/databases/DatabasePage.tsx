import { Alert, Anchor, Breadcrumbs, Button, Group, Paper, Switch, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Table as TableRecord } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone, importUrl } from '../../import';
import { formatBytes, formatCount, tableColumns, v3TimeToIso } from '../shared/format';
import { DATA_PATHS, queryPath, tablePath } from '../shared/paths';
import { databaseQueryOptions, tablesQueryOptions, useSetDeleteProtection } from './api';
import { DeleteDatabaseModal } from './DeleteDatabaseModal';

const tableCount = (n: number | undefined) =>
  n === undefined ? '… tables' : n === 1 ? '1 table' : `${formatCount(n)} tables`;

/** One database: its tables with records, size, last import and schema; protection and delete. */
export function DatabasePage() {
  const name = useParams().database ?? '';
  const database = useQuery(databaseQueryOptions(name));
  const tables = useQuery(tablesQueryOptions(name));
  const protection = useSetDeleteProtection(name);
  const [deleting, setDeleting] = useState(false);
  const navigate = useNavigate();
  const isProtected = database.data?.delete_protected ?? false;

  const setProtection = (on: boolean) =>
    protection.mutate(on, {
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Delete protection was not changed', message: error.message }),
    });

  return (
    <ImportDropZone database={name}>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={DATA_PATHS.databases} size="sm">
          Databases
        </Anchor>
        <Text size="sm">{name}</Text>
      </Breadcrumbs>
      <PageHeader
        title={name}
        description={
          database.data
            ? `${formatCount(database.data.count)} records in ${tableCount(tables.data?.length)}. Drop a file here to import it into this database.`
            : undefined
        }
        action={
          <Group gap="sm">
            <Button variant="default" component={Link} to={queryPath({ database: name })}>
              Query
            </Button>
            <Button variant="default" component={Link} to={importUrl({ database: name })}>
              Import into this database
            </Button>
            <Tooltip label="Delete protection is on: turn it off first." disabled={!isProtected}>
              <span>
                <Button
                  color="red"
                  variant="light"
                  disabled={!database.data || isProtected}
                  onClick={() => setDeleting(true)}
                >
                  Delete database
                </Button>
              </span>
            </Tooltip>
          </Group>
        }
      />
      {database.isError ? (
        <QueryError
          title={`The database ${name} could not be loaded`}
          error={database.error}
          onRetry={() => database.refetch()}
        />
      ) : (
        <>
          {database.data && (
            <Group mb="md" gap="md">
              <Switch
                label="Delete protection"
                description="A protected database cannot be deleted until this is turned off."
                checked={isProtected}
                disabled={protection.isPending}
                onChange={(e) => setProtection(e.currentTarget.checked)}
              />
            </Group>
          )}
          {isProtected && (
            <Alert color="gray" mb="md" title="This database is delete-protected">
              It cannot be deleted, by anyone or any program, while delete protection is on.
            </Alert>
          )}
          <Paper withBorder radius="md" p="xs">
            {tables.isPending ? (
              <CenteredLoader label="Loading tables" />
            ) : tables.isError ? (
              <QueryError
                title="The tables could not be loaded"
                error={tables.error}
                onRetry={() => tables.refetch()}
              />
            ) : (
              <TablesTable database={name} tables={tables.data} />
            )}
          </Paper>
        </>
      )}
      <DeleteDatabaseModal
        database={deleting && database.data ? database.data : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => void navigate(DATA_PATHS.databases)}
      />
    </ImportDropZone>
  );
}

function TablesTable({ database, tables }: { database: string; tables: TableRecord[] }) {
  if (tables.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        This database has no tables yet. Drop a file here, or use “Import into this database”, to create one.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={760} type="native">
      <Table verticalSpacing="sm" highlightOnHover aria-label="Tables">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Table</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>Last import</Table.Th>
            <Table.Th>Schema</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tables.map((table) => {
            const columns = tableColumns(table.schema);
            const summary = columns.map((c) => `${c.name} ${c.type}`).join(', ');
            return (
              <Table.Tr key={table.name}>
                <Table.Td>
                  <Anchor component={Link} to={tablePath(database, table.name)} fw={500}>
                    {table.name}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">{formatCount(table.count)}</Table.Td>
                <Table.Td ta="right">{formatBytes(table.estimated_storage_size)}</Table.Td>
                <Table.Td>
                  <Timestamp value={v3TimeToIso(table.counter_updated_at)} empty="never" />
                </Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm" ff="monospace" lineClamp={2} title={summary}>
                    {summary}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
