import { Alert, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { acceptInvitationRequest, PASSWORD_HINT } from '@svc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { authKeys } from '../auth';
import { acceptInvitation, inspectLink, tokenFromLocation } from './api';
import { PublicFrame } from './PublicFrame';

type Field = 'name' | 'password';

/** `/join#<token>`: the invitee chooses a name and a password, or joins with the account's SSO. */
export function JoinPage() {
  const [token] = useState(tokenFromLocation);
  const info = useQuery({ queryKey: ['link', token], queryFn: () => inspectLink(token), retry: false });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const join = useMutation({
    mutationFn: acceptInvitation,
    onSuccess: ({ user, ssoUrl }) => {
      if (ssoUrl) {
        window.location.assign(ssoUrl);
        return;
      }
      queryClient.clear();
      if (user) queryClient.setQueryData(authKeys.me(), user);
      navigate('/overview', { replace: true });
    },
  });

  const check = (body: Record<string, unknown>) => {
    const parsed = acceptInvitationRequest.safeParse({ token, ...body });
    if (parsed.success) return parsed.data;
    const found: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'name' || field === 'password') found[field] ??= issue.message;
    }
    setErrors(found);
    return null;
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const body = check({ name, password });
    if (body) join.mutate(body);
  };
  const withSso = () => {
    const body = check({ name, sso: true });
    if (body) join.mutate(body);
  };

  if (info.isPending) return <CenteredLoader label="Opening the invitation" height="60vh" />;
  if (info.isError) {
    return (
      <PublicFrame title="Invitation" intro="This invitation cannot be used.">
        <Alert color="red" title="The link does not work">
          {info.error.message}
        </Alert>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame
      title={`Join ${info.data.accountName}`}
      intro={`You were invited as ${info.data.email}. Choose the name others see, and your password.`}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {join.error && (
            <Alert color="red" title="You could not join">
              {join.error.message}
            </Alert>
          )}
          <TextInput label="E-mail" value={info.data.email} readOnly />
          <TextInput
            label="Your name"
            autoComplete="name"
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            error={errors.name}
            autoFocus
          />
          <PasswordInput
            label="Password"
            description={PASSWORD_HINT}
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
            error={errors.password}
          />
          <Button type="submit" loading={join.isPending} fullWidth>
            Join and sign in
          </Button>
          {info.data.ssoAvailable && (
            <>
              <Divider label="or" labelPosition="center" />
              <Text size="sm" c="dimmed">
                {info.data.accountName} signs in with single sign-on: join without a password, then sign in with your
                identity provider as {info.data.email}.
              </Text>
              <Button variant="default" fullWidth onClick={withSso} loading={join.isPending}>
                Join with single sign-on
              </Button>
            </>
          )}
        </Stack>
      </form>
    </PublicFrame>
  );
}
