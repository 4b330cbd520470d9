import { Anchor, Badge, Button, Group, Paper, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { DatabaseListItem } from '@svc/contracts';
import { IconLock } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone, importUrl } from '../../import';
import { formatBytes, formatCount, v3TimeToIso } from '../shared/format';
import { databasePath } from '../shared/paths';
import { databaseQueryOptions, databasesQueryOptions, tablesQueryOptions } from './api';
import { CreateDatabaseModal } from './CreateDatabaseModal';
import { DeleteDatabaseModal } from './DeleteDatabaseModal';

/** Every database of the account with its table count, records and size; create and delete. */
export function DatabasesPage() {
  const databases = useQuery(databasesQueryOptions());
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<DatabaseListItem | null>(null);

  return (
    <ImportDropZone>
      <PageHeader
        title="Databases"
        description="Each database holds tables of time-stamped records. Drop a file anywhere on this page to import it."
        action={
          <Group gap="sm">
            <Button variant="default" component={Link} to={importUrl()}>
              Import data
            </Button>
            <Button onClick={() => setCreating(true)}>Create database</Button>
          </Group>
        }
      />
      <Paper withBorder radius="md" p="xs">
        {databases.isPending ? (
          <CenteredLoader label="Loading databases" />
        ) : databases.isError ? (
          <QueryError
            title="The databases could not be loaded"
            error={databases.error}
            onRetry={() => databases.refetch()}
          />
        ) : (
          <DatabasesTable databases={databases.data} onDelete={setDeleting} />
        )}
      </Paper>
      <CreateDatabaseModal opened={creating} onClose={() => setCreating(false)} />
      <DeleteDatabaseModal database={deleting} onClose={() => setDeleting(null)} />
    </ImportDropZone>
  );
}

interface DatabasesTableProps {
  databases: DatabaseListItem[];
  onDelete: (database: DatabaseListItem) => void;
}

function DatabasesTable({ databases, onDelete }: DatabasesTableProps) {
  // Table counts and sizes come from each database's table list, delete protection from its record (the list
  // items carry only the spec's five fields); both are cached for the database page too.
  const tables = useQueries({ queries: databases.map((d) => tablesQueryOptions(d.name)) });
  const records = useQueries({ queries: databases.map((d) => databaseQueryOptions(d.name)) });
  if (databases.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        There are no databases yet. Create one, or drop a file here to import it into a new one.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table verticalSpacing="sm" highlightOnHover aria-label="Databases">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th ta="right">Tables</Table.Th>
            <Table.Th ta="right">Records</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {databases.map((database, i) => {
            const list = tables[i]?.data;
            const isProtected = records[i]?.data?.delete_protected ?? false;
            return (
              <Table.Tr key={database.name}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={databasePath(database.name)} fw={500}>
                      {database.name}
                    </Anchor>
                    {isProtected && (
                      <Badge size="sm" variant="light" color="gray" leftSection={<IconLock size={12} />}>
                        Protected
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{list ? formatCount(list.length) : '…'}</Table.Td>
                <Table.Td ta="right">{formatCount(database.count)}</Table.Td>
                <Table.Td ta="right">
                  {list ? formatBytes(list.reduce((sum, t) => sum + t.estimated_storage_size, 0)) : '…'}
                </Table.Td>
                <Table.Td>
                  <Timestamp value={v3TimeToIso(database.created_at)} />
                </Table.Td>
                <Table.Td ta="right">
                  <DeleteButton database={database} isProtected={isProtected} onDelete={onDelete} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface DeleteButtonProps {
  database: DatabaseListItem;
  isProtected: boolean;
  onDelete: (d: DatabaseListItem) => void;
}

function DeleteButton({ database, isProtected, onDelete }: DeleteButtonProps) {
  const button = (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      disabled={isProtected}
      onClick={() => onDelete(database)}
      aria-label={`Delete ${database.name}`}
    >
      Delete
    </Button>
  );
  if (!isProtected) return button;
  return (
    <Tooltip label="Delete protection is on. Turn it off on the database page to delete it.">
      {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
      <span>{button}</span>
    </Tooltip>
  );
}
