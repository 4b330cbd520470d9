import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type MouseEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { authKeys, login } from './api';
import { safeNextPath } from './nextPath';

interface FieldErrors {
  email?: string;
  password?: string;
}

function validate(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Enter the e-mail address you sign in with.';
  else if (!email.includes('@')) errors.email = 'Enter a whole e-mail address, such as name@example.com.';
  if (!password) errors.password = 'Enter your password.';
  return errors;
}

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ user, loginNotices }) => {
      // Nothing cached from an earlier session may show to the person signing in now.
      queryClient.clear();
      queryClient.setQueryData(authKeys.me(), user);
      for (const notice of loginNotices ?? []) {
        notifications.show({
          color: 'orange',
          autoClose: false,
          title: 'Failed sign-in attempts on your account',
          message: `${notice.failures} wrong passwords were tried for your e-mail from ${notice.address} (${new Date(notice.at).toLocaleString()}); that address was slowed down. If this was not you, consider changing your password.`,
        });
      }
      navigate(safeNextPath(params.get('next')), { replace: true });
    },
    onError: () => setPassword(''),
  });

  // SSO leaves the console for the identity provider: a link (full navigation), not a fetch.
  const ssoHref = `/sso/saml/login?${new URLSearchParams({ email: email.trim(), return_to: safeNextPath(params.get('next')) })}`;
  const checkSsoEmail = (event: MouseEvent) => {
    const emailError = validate(email, 'x').email;
    setFieldErrors(emailError ? { email: emailError } : {});
    if (emailError) event.preventDefault();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    mutation.mutate({ email: email.trim(), password });
  };

  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <title>Sign in · SVC console</title>
      <Box w="100%" maw={400}>
        <Title order={1} size="h2" ta="center" mb={4}>
          SVC console
        </Title>
        <Text c="dimmed" ta="center" mb="lg">
          Sign in with your e-mail address and password.
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              {mutation.error && (
                <Alert color="red" title="Could not sign in">
                  {mutation.error.message}
                </Alert>
              )}
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={fieldErrors.email}
                autoFocus
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={fieldErrors.password}
              />
              <Button type="submit" loading={mutation.isPending} fullWidth mt="xs">
                Sign in
              </Button>
              <Divider label="or" labelPosition="center" />
              <Button component="a" href={ssoHref} variant="default" fullWidth onClick={checkSsoEmail}>
                Sign in with SSO
              </Button>
            </Stack>
          </form>
        </Paper>
      </Box>
    </Center>
  );
}
