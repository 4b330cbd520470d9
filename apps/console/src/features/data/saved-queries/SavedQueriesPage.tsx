import { Alert, Anchor, Button, Group, Paper, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { SavedQuery } from '@svc/contracts';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { JobStatusBadge } from '../shared/JobStatusBadge';
import { jobPath, savedQueryPath } from '../shared/paths';
import { savedQueriesQueryOptions, useDeleteSavedQuery, useDuplicateSavedQuery, useRunSavedQuery } from './api';

const READ_ONLY = 'Only administrators and its owner can delete it';

function Row({ query }: { query: SavedQuery }) {
  const navigate = useNavigate();
  const run = useRunSavedQuery();
  const duplicate = useDuplicateSavedQuery();
  const remove = useDeleteSavedQuery();
  const failed = (what: string) => (error: Error) =>
    notifications.show({ color: 'red', title: `"${query.name}" was not ${what}`, message: error.message });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete saved query',
      children: (
        <Text size="sm">
          Delete <strong>{query.name}</strong> for everyone in the account? The jobs it ran stay in the job list.
        </Text>
      ),
      labels: { confirm: 'Delete saved query', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(query.id, { onError: failed('deleted') }),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={savedQueryPath(query)} fw={500} aria-label={`Open ${query.name} in the editor`}>
          {query.name}
        </Anchor>
        {query.description && (
          <Text size="xs" c="dimmed" lineClamp={2}>
            {query.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm">{query.database}</Text>
        <Text size="xs" c="dimmed">
          {query.engine === 'hive' ? 'Hive' : 'Presto'}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{query.owner?.name ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        {query.lastRun ? (
          <Group gap="xs" wrap="nowrap">
            {query.lastRun.status && <JobStatusBadge status={query.lastRun.status} />}
            <Anchor component={Link} to={jobPath(query.lastRun.jobId)} size="sm">
              Job {query.lastRun.jobId}
            </Anchor>
            <Timestamp value={query.lastRun.at} />
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            never
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button
            size="compact-sm"
            variant="default"
            loading={run.isPending}
            aria-label={`Run ${query.name}`}
            onClick={() =>
              run.mutate(query.id, {
                onSuccess: ({ jobId }) => navigate(savedQueryPath(query, jobId)),
                onError: failed('run'),
              })
            }
          >
            Run
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            loading={duplicate.isPending}
            aria-label={`Duplicate ${query.name}`}
            onClick={() =>
              duplicate.mutate(query.id, {
                onSuccess: (copy) => notifications.show({ color: 'teal', message: `Made "${copy.name}".` }),
                onError: failed('duplicated'),
              })
            }
          >
            Duplicate
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            disabled={!query.editable}
            title={query.editable ? undefined : READ_ONLY}
            aria-label={`Delete ${query.name}`}
            onClick={confirmDelete}
          >
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** Saved queries of the account: search, open in the editor, run, duplicate, delete. */
export function SavedQueriesPage() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const queries = useQuery({ ...savedQueriesQueryOptions(debounced), placeholderData: keepPreviousData });
  return (
    <>
      <PageHeader
        title="Saved queries"
        description="Queries kept for everyone in the account. Save one from the Query editor; anyone can run or duplicate it, administrators and its owner change it."
      />
      <TextInput
        label="Search"
        placeholder="Name, description, database or SQL"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maxLength={200}
        maw={420}
        mb="md"
      />
      <Paper withBorder radius="md" p="xs">
        {queries.isPending ? (
          <CenteredLoader label="Loading saved queries" />
        ) : queries.isError ? (
          <QueryError
            title="The saved queries could not be loaded"
            error={queries.error}
            onRetry={() => queries.refetch()}
          />
        ) : queries.data.length === 0 ? (
          <Alert color="gray" variant="light">
            {debounced
              ? `No saved query matches "${debounced}".`
              : 'No saved queries yet: save one from the Query editor.'}
          </Alert>
        ) : (
          <Table.ScrollContainer minWidth={800} type="native">
            <Table verticalSpacing="sm" aria-label="Saved queries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Database</Table.Th>
                  <Table.Th>Owner</Table.Th>
                  <Table.Th>Last run</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queries.data.map((q) => (
                  <Row key={q.id} query={q} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </>
  );
}
