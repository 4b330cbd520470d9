import { Alert, Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { type CreatedInvitation, createInvitationRequest } from '@svc/contracts';
import { type FormEvent, useState } from 'react';
import { useInvite } from './api';
import { LinkToCopy } from './LinkToCopy';

export interface InviteModalProps {
  opened: boolean;
  onClose: () => void;
}

/** Invite an address with a role; then the link to copy (and whether it was e-mailed). */
export function InviteModal({ opened, onClose }: InviteModalProps) {
  const [email, setEmail] = useState('');
  const [administrator, setAdministrator] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<CreatedInvitation | null>(null);
  const invite = useInvite();

  const close = () => {
    setEmail('');
    setAdministrator(false);
    setError(undefined);
    setSent(null);
    invite.reset();
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createInvitationRequest.safeParse({ email: email.trim(), administrator });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    invite.mutate(parsed.data, { onSuccess: setSent });
  };

  return (
    <Modal opened={opened} onClose={close} title={sent ? 'Invitation created' : 'Invite user'} size="lg">
      {sent ? (
        <Stack>
          <LinkToCopy sent={sent} label="Invitation link" to={sent.invitation.email} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Done
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {invite.error && (
              <Alert color="red" title="The invitation was not created">
                {invite.error.message}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              description="The person chooses their own name and password (or joins with single sign-on)."
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              data-autofocus
            />
            <Switch
              label="Administrator"
              description="Administrators manage the users of the account."
              checked={administrator}
              onChange={(e) => setAdministrator(e.currentTarget.checked)}
            />
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                Create invitation
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
