import { Anchor, Button, Paper, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { Timestamp } from '../../components/Timestamp';
import { parentSegmentsQueryOptions } from './api';
import { BuildStatusBadge } from './detail/BuildStatusBadge';

/** Every parent segment of the account, with its master table, population and last build. */
export function ParentSegmentsPage() {
  const list = useQuery(parentSegmentsQueryOptions());
  return (
    <>
      <PageHeader
        title="Parent segments"
        description="Profiles built from a master table, with attributes and behaviors. Segments and journeys start here."
        action={
          <Button component={Link} to="/parent-segments/new">
            Create parent segment
          </Button>
        }
      />
      <Paper withBorder radius="md" p="xs">
        {list.isPending ? (
          <CenteredLoader label="Loading parent segments" />
        ) : list.isError ? (
          <QueryError
            title="The parent segments could not be loaded"
            error={list.error}
            onRetry={() => list.refetch()}
          />
        ) : list.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            No parent segments yet. Create one from a table of customers you have imported.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720} type="native">
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Master table</Table.Th>
                  <Table.Th>Population</Table.Th>
                  <Table.Th>Build</Table.Th>
                  <Table.Th>Last build</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((p) => (
                  <Table.Tr key={p.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/parent-segments/${p.id}`} fw={500}>
                        {p.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {p.master.parentDatabaseName}.{p.master.parentTableName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{p.population.toLocaleString('en')}</Table.Td>
                    <Table.Td>
                      <BuildStatusBadge status={p.buildStatus} />
                    </Table.Td>
                    <Table.Td>
                      <Timestamp value={p.matrixUpdatedAt} empty="never" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </>
  );
}
