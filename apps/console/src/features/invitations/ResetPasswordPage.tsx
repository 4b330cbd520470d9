import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_HINT, passwordProblem } from '@svc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { authKeys } from '../auth';
import { completeReset, inspectLink, tokenFromLocation } from './api';
import { PublicFrame } from './PublicFrame';

/** `/reset-password#<token>`: choose a new password; every other session of the user ends. */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromLocation);
  const info = useQuery({ queryKey: ['link', token], queryFn: () => inspectLink(token), retry: false });
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () => completeReset(token, password),
    onSuccess: ({ user }) => {
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), user);
      navigate('/overview', { replace: true });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = passwordProblem(password);
    setError(problem ?? undefined);
    if (!problem) reset.mutate();
  };

  if (info.isPending) return <CenteredLoader label="Opening the link" height="60vh" />;
  if (info.isError || info.data.kind !== 'password_reset') {
    return (
      <PublicFrame title="Reset password" intro="This reset link cannot be used.">
        <Alert color="red" title="The link does not work">
          {info.error?.message ?? 'This is not a password reset link.'}
        </Alert>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame
      title="Reset password"
      intro={`Choose a new password for ${info.data.email} in ${info.data.accountName}.`}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {reset.error && (
            <Alert color="red" title="The password was not changed">
              {reset.error.message}
            </Alert>
          )}
          <PasswordInput
            label="New password"
            description={`${PASSWORD_HINT} You are signed out everywhere else.`}
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            autoFocus
          />
          <Button type="submit" loading={reset.isPending} fullWidth>
            Set password and sign in
          </Button>
        </Stack>
      </form>
    </PublicFrame>
  );
}
