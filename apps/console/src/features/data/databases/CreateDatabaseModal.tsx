import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { newDataNameProblem } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { databasePath } from '../shared/paths';
import { useCreateDatabase } from './api';

export interface CreateDatabaseModalProps {
  opened: boolean;
  onClose: () => void;
}

const NAME_RULE = 'Use 3 to 255 lowercase letters, digits and underscores, not starting with sqlite_ or pg_.';

export function CreateDatabaseModal({ opened, onClose }: CreateDatabaseModalProps) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useCreateDatabase();
  const navigate = useNavigate();
  // The server's own rule (reserved names included), with its message.
  const problem = newDataNameProblem(name, 'database');
  const invalid = problem !== null;

  const close = () => {
    create.reset();
    setName('');
    setTouched(false);
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid) return;
    create.mutate(name, {
      onSuccess: ({ database }) => {
        notifications.show({ color: 'teal', message: `Database ${database} was created.` });
        close();
        void navigate(databasePath(database));
      },
    });
  };

  return (
    <Modal opened={opened} onClose={close} title="Create database">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {create.error && (
            <Alert color="red" title="The database was not created">
              {create.error.message}
            </Alert>
          )}
          <TextInput
            label="Database name"
            description={`${NAME_RULE} For example web_events.`}
            value={name}
            onChange={(e) => setName(e.currentTarget.value.trim())}
            onBlur={() => setTouched(true)}
            error={touched && name !== '' ? problem : undefined}
            data-autofocus
            required
            autoComplete="off"
            spellCheck={false}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={invalid}>
              Create database
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
