import { Alert, Button, Grid, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ParentSegment } from '@svc/contracts';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { BlockedAction } from '../../../components/BlockedAction';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import { folderBlocker, useFolderAccess } from '../../folder-permissions';
import { parentSegmentQueryOptions, useDeleteParentSegment, useRebuildParentSegment } from '../api';
import { BuildStatusBadge } from './BuildStatusBadge';
import { ColumnsPanel } from './ColumnsPanel';
import { FolderTree } from './FolderTree';

/** One parent segment: its build, its typed attributes and behaviors, and its folders of segments. */
export function ParentSegmentPage() {
  const { id = '' } = useParams();
  const record = useQuery(parentSegmentQueryOptions(id));
  if (record.isPending) return <CenteredLoader label="Loading the parent segment" />;
  if (record.isError) {
    return (
      <QueryError
        title="The parent segment could not be loaded"
        error={record.error}
        onRetry={() => record.refetch()}
      />
    );
  }
  return <Loaded record={record.data} />;
}

function Loaded({ record }: { record: ParentSegment }) {
  const rebuild = useRebuildParentSegment(record.id);
  const remove = useDeleteParentSegment();
  const navigate = useNavigate();
  const building = record.buildStatus === 'queued' || record.buildStatus === 'running';
  const permission = useFolderAccess([record.rootFolderId])(record.rootFolderId);
  const blocker = (action: string) => folderBlocker(permission, record.name, action);

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete parent segment',
      children: <Text size="sm">Delete {record.name} with its folders and segments? This cannot be undone.</Text>,
      labels: { confirm: 'Delete parent segment', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(record.id, {
          onSuccess: () => void navigate('/parent-segments'),
          onError: (e) =>
            notifications.show({ color: 'red', title: `${record.name} was not deleted`, message: e.message }),
        }),
    });

  return (
    <>
      <PageHeader
        title={record.name}
        description={record.description || undefined}
        action={
          <Group>
            <BlockedAction reason={blocker('delete this parent segment')}>
              <Button variant="default" color="red" onClick={confirmDelete}>
                Delete
              </Button>
            </BlockedAction>
            <BlockedAction reason={blocker('rebuild this parent segment')}>
              <Button
                leftSection={<IconRefresh size={16} />}
                loading={rebuild.isPending}
                disabled={building}
                onClick={() => rebuild.mutate()}
              >
                Rebuild
              </Button>
            </BlockedAction>
          </Group>
        }
      />
      <Stack gap="lg">
        {record.buildStatus === 'error' && (
          <Alert color="red" title="The last build failed">
            Job {record.buildJobId} did not finish; its error is on the job's page. Check that the source tables still
            exist, then rebuild.
          </Alert>
        )}
        {rebuild.isError && (
          <Alert color="red" title="The build did not start">
            {rebuild.error.message}
          </Alert>
        )}
        <Paper withBorder radius="md" p="md">
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg" role="group" aria-label="Build">
            <Stat label="Population">
              <Text fw={700} size="xl" aria-label="Population">
                {record.population.toLocaleString('en')}
              </Text>
            </Stat>
            <Stat label="Build status">
              <BuildStatusBadge status={record.buildStatus} />
            </Stat>
            <Stat label="Last build">
              <Timestamp value={record.matrixUpdatedAt} empty="never" />
            </Stat>
            <Stat label="Master table">
              <Text size="sm" ff="monospace">
                {record.master.parentDatabaseName}.{record.master.parentTableName} by {record.master.parentKey}
              </Text>
            </Stat>
          </SimpleGrid>
        </Paper>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <ColumnsPanel record={record} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <FolderTree record={record} />
          </Grid.Col>
        </Grid>
      </Stack>
    </>
  );
}

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
