import { Alert, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { IntegrationStatus } from '@svc/contracts';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDeleteIntegration, useRunIntegration, useSetPaused } from './api';

export interface SyncActionsProps {
  id: string;
  name: string;
  status: IntegrationStatus | undefined;
  /** The target tables, named in the delete dialog. */
  tables: string[];
}

function DeleteSyncModal({
  id,
  name,
  tables,
  opened,
  onClose,
}: Omit<SyncActionsProps, 'status'> & {
  opened: boolean;
  onClose: () => void;
}) {
  const [dropTables, setDropTables] = useState(false);
  const remove = useDeleteIntegration();
  const navigate = useNavigate();
  const close = () => {
    remove.reset();
    setDropTables(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Delete sync ${name}`}>
      <Stack>
        <Text size="sm">
          Delete the sync <strong>{name}</strong> and its runs? Its schedule stops. The tables it loaded stay unless you
          delete them too.
        </Text>
        <Checkbox
          label={`Also delete its target tables and their rows (${tables.join(', ')})`}
          checked={dropTables}
          onChange={(e) => setDropTables(e.currentTarget.checked)}
        />
        {remove.error && (
          <Alert color="red" title="The sync was not deleted">
            {remove.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(
                { id, dropTables },
                {
                  onSuccess: () => {
                    notifications.show({
                      color: 'teal',
                      message: `Sync ${name} was deleted${dropTables ? ' with its tables' : ''}.`,
                    });
                    void navigate('/data/sync');
                  },
                },
              )
            }
          >
            Delete sync
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A sync's actions: run now, re-sync from scratch, pause or resume, edit and delete. */
export function SyncActions({ id, name, status, tables }: SyncActionsProps) {
  const run = useRunIntegration(id);
  const pause = useSetPaused(id);
  const [confirmResync, setConfirmResync] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const paused = status?.state === 'paused';
  const failed = run.error ?? pause.error;
  return (
    <Stack gap="xs" align="flex-end">
      <Group gap="xs">
        <Button loading={run.isPending && !confirmResync} onClick={() => run.mutate(false)}>
          Run now
        </Button>
        <Button variant="default" onClick={() => setConfirmResync(true)}>
          Re-sync from scratch
        </Button>
        <Button variant="default" loading={pause.isPending} disabled={!status} onClick={() => pause.mutate(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </Button>
        <Button variant="default" component={Link} to={`/data/sync/${id}/edit`}>
          Edit
        </Button>
        <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </Group>
      {failed && (
        <Alert color="red" title="That did not work">
          {failed.message}
        </Alert>
      )}
      <Modal opened={confirmResync} onClose={() => setConfirmResync(false)} title="Re-sync from scratch">
        <Stack>
          <Text size="sm">
            Every table is read whole and its target table replaced when the rows are in; rows deleted in the warehouse
            go too. Until then the tables keep their rows.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmResync(false)}>
              Cancel
            </Button>
            <Button
              loading={run.isPending}
              onClick={() => run.mutate(true, { onSettled: () => setConfirmResync(false) })}
            >
              Re-sync
            </Button>
          </Group>
        </Stack>
      </Modal>
      <DeleteSyncModal id={id} name={name} tables={tables} opened={deleting} onClose={() => setDeleting(false)} />
    </Stack>
  );
}
