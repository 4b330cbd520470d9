import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { ConsoleUser, Me } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { InvitationsPanel, InviteModal, ResetLinkModal } from '../invitations';
import { AddUserModal } from './AddUserModal';
import { useRemoveUser, usersQueryOptions } from './api';
import { DefaultFolderAccess } from './DefaultFolderAccess';
import { EditUserModal } from './EditUserModal';
import { type UserSsoAction, UserSsoModal } from './UserSsoModal';
import { UsersTable } from './UsersTable';

export interface UsersPageProps {
  /** The signed-in user: decides whether the page is open to them and which row is "you". */
  currentUser: Me;
}

const DESCRIPTION = 'People who can sign in to this account.';

export function UsersPage({ currentUser }: UsersPageProps) {
  if (!currentUser.administrator) {
    return (
      <>
        <PageHeader title="Users" description={DESCRIPTION} />
        <Alert color="blue" title="Only administrators can manage users">
          You are signed in as {currentUser.email}, who is not an administrator of {currentUser.accountName}. Ask an
          administrator of the account to add or remove users, or to make you an administrator.
        </Alert>
      </>
    );
  }
  return <AdminUsersPage currentUser={currentUser} />;
}

function AdminUsersPage({ currentUser }: UsersPageProps) {
  const users = useQuery(usersQueryOptions());
  const remove = useRemoveUser();
  const [adding, setAdding] = useState(false);
  const [ssoAction, setSsoAction] = useState<UserSsoAction | null>(null);
  const [editing, setEditing] = useState<ConsoleUser | null>(null);
  const [inviting, setInviting] = useState(false);
  const [resetting, setResetting] = useState<ConsoleUser | null>(null);

  const confirmRemove = (user: ConsoleUser) =>
    modals.openConfirmModal({
      title: 'Remove user',
      children: (
        <Text size="sm">
          Remove <strong>{user.name}</strong> ({user.email}) from {currentUser.accountName}? They can no longer sign in,
          and their API keys stop working.
        </Text>
      ),
      labels: { confirm: 'Remove user', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(user.id, {
          onSuccess: () => notifications.show({ color: 'teal', message: `${user.name} was removed.` }),
          onError: (error) =>
            notifications.show({ color: 'red', title: `${user.name} was not removed`, message: error.message }),
        }),
    });

  return (
    <>
      <PageHeader
        title="Users"
        description={DESCRIPTION}
        action={
          <Group>
            <Button variant="default" onClick={() => setSsoAction({ kind: 'create' })}>
              Create SSO user
            </Button>
            <Button variant="default" onClick={() => setAdding(true)}>
              Add user
            </Button>
            <Button onClick={() => setInviting(true)}>Invite user</Button>
          </Group>
        }
      />
      <Paper withBorder radius="md" p="xs">
        {users.isPending ? (
          <CenteredLoader label="Loading users" />
        ) : users.isError ? (
          <QueryError title="The users could not be loaded" error={users.error} onRetry={() => users.refetch()} />
        ) : (
          <UsersTable
            users={users.data}
            currentUserId={currentUser.id}
            onRemove={confirmRemove}
            onEdit={setEditing}
            onResetLink={setResetting}
            onSsoChange={(user, kind) => setSsoAction({ kind, user })}
          />
        )}
      </Paper>
      <InvitationsPanel />
      <DefaultFolderAccess />
      <InviteModal opened={inviting} onClose={() => setInviting(false)} />
      <ResetLinkModal user={resetting} onClose={() => setResetting(null)} />
      <AddUserModal opened={adding} onClose={() => setAdding(false)} />
      {editing && <EditUserModal user={editing} currentUserId={currentUser.id} onClose={() => setEditing(null)} />}
      <UserSsoModal action={ssoAction} onClose={() => setSsoAction(null)} />
    </>
  );
}
