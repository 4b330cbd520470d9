import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { requestReset, resetAvailability } from './api';
import { PublicFrame } from './PublicFrame';

/**
 * `/forgot-password`: asks for a reset link by e-mail. The answer is the same for every address (no
 * account discovery), so the page says what happens if the address has an account. Without SMTP it says
 * whom to ask instead.
 */
export function ForgotPasswordPage() {
  const available = useQuery({ queryKey: ['password-reset'], queryFn: resetAvailability, retry: false });
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const ask = useMutation({ mutationFn: requestReset });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = email.includes('@') ? undefined : 'Enter the e-mail address you sign in with.';
    setError(problem);
    if (!problem) ask.mutate(email.trim());
  };
  const intro = 'We send a link to choose a new password.';
  if (available.data === false) {
    return (
      <PublicFrame title="Forgot your password?" intro={intro}>
        <Alert color="blue" title="Ask an administrator">
          This server does not send e-mail. An administrator of your account can make a password reset link for you on
          the Users page.
        </Alert>
      </PublicFrame>
    );
  }
  return (
    <PublicFrame title="Forgot your password?" intro={intro}>
      {ask.isSuccess ? (
        <Alert color="teal" title="Check your inbox">
          If {email.trim()} belongs to a user who signs in with a password, a link to reset it is on its way. It works
          once, for one hour.
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {ask.error && (
              <Alert color="red" title="The link was not sent">
                {ask.error.message}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setError(undefined);
              }}
              error={error}
              autoFocus
            />
            <Button type="submit" loading={ask.isPending || available.isPending} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
    </PublicFrame>
  );
}
