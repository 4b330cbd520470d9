import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ConsoleUser, createUserRequest } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useUpdateUser } from './api';

export interface EditUserModalProps {
  user: ConsoleUser;
  /** The signed-in user's id: editing yourself gets a word of warning. */
  currentUserId: number;
  onClose: () => void;
}

type Role = 'member' | 'administrator';

const ROLES: { value: Role; label: string; description: string }[] = [
  {
    value: 'member',
    label: 'Member',
    description: 'Works with data, segments and journeys, in the folders where they have Full Control.',
  },
  {
    value: 'administrator',
    label: 'Administrator',
    description: 'Also manages users, API keys of everyone, single sign-on, folder permissions and the audit log.',
  },
];

/** An administrator renames a user or changes their role; the server keeps one administrator able to sign in. */
export function EditUserModal({ user, currentUserId, onClose }: EditUserModalProps) {
  const [name, setName] = useState(user.name);
  const [role, setRole] = useState<Role>(user.administrator ? 'administrator' : 'member');
  const [nameError, setNameError] = useState<string | null>(null);
  const update = useUpdateUser();
  const self = user.id === currentUserId;
  const stepsDown = self && user.administrator && role === 'member';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = createUserRequest.shape.name.safeParse(name);
    if (!checked.success) return setNameError(checked.error.issues[0]?.message ?? 'Enter a name.');
    const change = {
      ...(checked.data !== user.name ? { name: checked.data } : {}),
      ...((role === 'administrator') !== user.administrator ? { administrator: role === 'administrator' } : {}),
    };
    if (Object.keys(change).length === 0) return onClose();
    update.mutate(
      { id: user.id, change },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'teal', message: `${saved.name} was saved.` });
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Edit ${user.name}`}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {update.error && (
            <Alert color="red" title="The user was not saved">
              {update.error.message}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {user.email}
          </Text>
          <TextInput
            label="Name"
            value={name}
            error={nameError}
            data-autofocus
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
          />
          <Radio.Group label="Role" value={role} onChange={(value) => setRole(value as Role)}>
            <Stack gap="xs" mt="xs">
              {ROLES.map((r) => (
                <Radio key={r.value} value={r.value} label={r.label} description={r.description} />
              ))}
            </Stack>
          </Radio.Group>
          {(role === 'administrator') !== user.administrator && (
            <Text size="sm" c="dimmed">
              A new role ends {self ? 'your other sessions' : `${user.name}’s sessions`}: they sign in again with it.
            </Text>
          )}
          {stepsDown && (
            <Alert color="yellow" title="You are giving up administration">
              You stay signed in as a member and can no longer manage users, keys of others, SSO or permissions.
            </Alert>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
