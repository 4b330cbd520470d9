import { Anchor, Breadcrumbs, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { ImportDropZone, importUrl } from '../../import';
import { Figure } from '../shared/Figure';
import { formatBytes, formatCount, tableColumns, v3TimeToIso } from '../shared/format';
import { DATA_PATHS, databasePath, queryPath } from '../shared/paths';
import { tableQueryOptions } from './api';
import { TailPanel } from './TailPanel';

/** One table: figures, schema, newest rows, and the ways to import into it or query it. */
export function TablePage() {
  const params = useParams();
  const database = params.database ?? '';
  const name = params.table ?? '';
  const table = useQuery(tableQueryOptions(database, name));
  const columns = table.data ? tableColumns(table.data.schema) : [];

  return (
    <ImportDropZone database={database} table={name}>
      <Breadcrumbs mb="xs">
        <Anchor component={Link} to={DATA_PATHS.databases} size="sm">
          Databases
        </Anchor>
        <Anchor component={Link} to={databasePath(database)} size="sm">
          {database}
        </Anchor>
        <Text size="sm">{name}</Text>
      </Breadcrumbs>
      <PageHeader
        title={name}
        description={`A table of ${database}. Drop a file here to import it into this table.`}
        action={
          <Group gap="sm">
            <Button variant="default" component={Link} to={importUrl({ database, table: name })}>
              Import into this table
            </Button>
            <Button component={Link} to={queryPath({ database, table: name })}>
              Query this table
            </Button>
          </Group>
        }
      />
      {table.isPending ? (
        <CenteredLoader label="Loading the table" />
      ) : table.isError ? (
        <QueryError
          title={`The table ${name} could not be loaded`}
          error={table.error}
          onRetry={() => table.refetch()}
        />
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Figure label="Records">{formatCount(table.data.count)}</Figure>
            <Figure label="Size">{formatBytes(table.data.estimated_storage_size)}</Figure>
            <Figure label="Last import">
              <Timestamp value={v3TimeToIso(table.data.counter_updated_at)} empty="never" />
            </Figure>
            <Figure label="Newest record">
              <Timestamp value={v3TimeToIso(table.data.last_log_timestamp)} empty="none yet" />
            </Figure>
          </SimpleGrid>
          <section aria-labelledby="schema-title">
            <Title order={2} size="h4" mb="xs" id="schema-title">
              Schema
            </Title>
            <Paper withBorder radius="md" p="xs">
              <Table aria-label="Schema" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Column</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Alias</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {columns.map((c) => (
                    <Table.Tr key={c.name}>
                      <Table.Td ff="monospace">{c.name}</Table.Td>
                      <Table.Td ff="monospace">{c.type}</Table.Td>
                      <Table.Td c="dimmed">{c.alias ?? (c.name === 'time' ? 'Unix seconds' : '')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Paper>
          </section>
          <TailPanel database={database} table={name} columns={columns} />
        </Stack>
      )}
    </ImportDropZone>
  );
}
