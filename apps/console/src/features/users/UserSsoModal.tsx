import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ConsoleUser } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { type SsoChange, useChangeUserSso, useCreateSsoUser } from './ssoApi';

/** What the modal does: create a user who signs in with SSO, or change an existing user's SSO mode. */
export type UserSsoAction = { kind: 'create' } | { kind: SsoChange; user: ConsoleUser };

export interface UserSsoModalProps {
  action: UserSsoAction | null;
  onClose: () => void;
}

const TITLES: Record<UserSsoAction['kind'], string> = {
  create: 'Create SSO user',
  enable_sso: 'Enable SSO',
  enforce_sso: 'Enforce SSO',
  disable_sso: 'Disable SSO',
};

const EXPLAIN: Record<SsoChange, string> = {
  enable_sso: 'They may sign in with their password or with SSO. Nobody is signed out.',
  enforce_sso:
    'They may sign in only with SSO: their password sessions end now and password sign-in is refused. Their API keys keep working.',
  disable_sso: 'They may sign in only with their password. Their SSO sessions end now.',
};

export function UserSsoModal({ action, onClose }: UserSsoModalProps) {
  return (
    <Modal opened={action !== null} onClose={onClose} title={action ? TITLES[action.kind] : ''}>
      {action && (
        <UserSsoForm key={action.kind + ('user' in action ? action.user.id : '')} action={action} onDone={onClose} />
      )}
    </Modal>
  );
}

function UserSsoForm({ action, onDone }: { action: UserSsoAction; onDone: () => void }) {
  const existing = 'user' in action ? action.user : null;
  const [firstName, setFirstName] = useState('');
  const [email, setEmail] = useState('');
  const [identifier, setIdentifier] = useState(existing?.ssoIdentifier ?? '');
  const change = useChangeUserSso();
  const create = useCreateSsoUser();
  const pending = change.isPending || create.isPending;
  const error = change.error ?? create.error;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const done = (message: string) => {
      notifications.show({ color: 'teal', message });
      onDone();
    };
    if (action.kind === 'create') {
      create.mutate(
        { firstName: firstName.trim(), email: email.trim(), identifier: identifier.trim() },
        { onSuccess: () => done(`${email.trim()} was created; they sign in with SSO.`) },
      );
    } else {
      const user = action.user;
      change.mutate(
        { change: action.kind, email: user.email, ...(identifier.trim() ? { identifier: identifier.trim() } : {}) },
        { onSuccess: () => done(`${TITLES[action.kind]}: done for ${user.email}.`) },
      );
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" title="Not changed">
            {error.message}
          </Alert>
        )}
        {action.kind !== 'create' && (
          <Text size="sm">
            <strong>{existing?.email}</strong>: {EXPLAIN[action.kind]}
          </Text>
        )}
        {action.kind === 'create' && (
          <>
            <TextInput
              label="First name"
              required
              value={firstName}
              onChange={(e) => setFirstName(e.currentTarget.value)}
            />
            <TextInput
              label="E-mail"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
          </>
        )}
        {action.kind !== 'disable_sso' && (
          <TextInput
            label="SSO identifier"
            description="The NameID your identity provider sends for this person."
            required
            value={identifier}
            onChange={(e) => setIdentifier(e.currentTarget.value)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={pending} color={action.kind === 'disable_sso' ? 'red' : undefined}>
            {TITLES[action.kind]}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
