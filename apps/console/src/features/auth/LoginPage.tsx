import {
  Alert,
  Anchor,
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
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api';
import { authKeys, discoverSso, login } from './api';
import { safeNextPath } from './nextPath';

interface FieldErrors {
  email?: string;
  password?: string;
  account?: string;
}

/** An account ID as typed, or null when it is not one. */
const accountNumber = (text: string): number | null => (/^[1-9]\d{0,15}$/.test(text.trim()) ? Number(text) : null);

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
  // The account ID: given by an SSO sign-in link (/login?account=3), or asked for when SSO starts or when
  // the e-mail address and password open users of several accounts (409).
  const [account, setAccount] = useState(params.get('account') ?? '');
  const [askAccount, setAskAccount] = useState(params.has('account'));
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
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) setAskAccount(true);
      else setPassword('');
    },
  });

  // SSO leaves the console for the identity provider: a link (full navigation), not a fetch. With an account
  // ID it starts at that account; otherwise the e-mail's domain finds the account that claimed it (decision
  // 0037). An unclaimed domain answers exactly as one claimed without SSO, so nothing tells whether an
  // address exists here.
  const accountId = accountNumber(account);
  const returnTo = safeNextPath(params.get('next'));
  const ssoHref =
    accountId === null
      ? undefined
      : `/sso/saml/login?${new URLSearchParams({ account: String(accountId), return_to: returnTo })}`;
  const discovery = useMutation({
    mutationFn: discoverSso,
    onSuccess: (url) => {
      if (url) {
        window.location.assign(url);
        return;
      }
      setAskAccount(true);
      setFieldErrors({
        account:
          'Single sign-on is not set up for this e-mail address. Sign in with your password, or enter your account ID for single sign-on.',
      });
    },
  });
  const startSso = (event: MouseEvent) => {
    if (accountId !== null) return;
    event.preventDefault();
    if (email.includes('@')) {
      discovery.mutate({ email: email.trim(), returnTo });
      return;
    }
    setAskAccount(true);
    setFieldErrors({
      account:
        'Enter your e-mail address, or your account ID for single sign-on. Your administrator has the ID; it is in the sign-in link they share.',
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(email, password);
    if (account.trim() !== '' && accountId === null) errors.account = 'An account ID is a number, such as 3.';
    setFieldErrors(errors);
    if (errors.email || errors.password || errors.account) return;
    mutation.mutate({ email: email.trim(), password, ...(accountId === null ? {} : { accountId }) });
  };

  return (
    <Center mih="100vh" bg="gray.0" p="md">
      <title>Sign in · SVC console</title>
      <Box w="100%" maw={400}>
        <Title order={1} size="h2" ta="center" mb={4}>
          SVC console
        </Title>
        <Text c="dimmed" ta="center" mb="lg">
          Sign in with your e-mail address and password, or with single sign-on.
        </Text>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              {mutation.error && (
                <Alert color="red" title="Could not sign in">
                  {mutation.error.message}
                </Alert>
              )}
              {discovery.error && (
                <Alert color="red" title="Could not start single sign-on">
                  {discovery.error.message}
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
              {askAccount && (
                <TextInput
                  label="Account ID"
                  description="Needed for single sign-on, or when your e-mail address is in several accounts."
                  inputMode="numeric"
                  value={account}
                  onChange={(e) => setAccount(e.currentTarget.value)}
                  error={fieldErrors.account}
                />
              )}
              <Button type="submit" loading={mutation.isPending} fullWidth mt="xs">
                Sign in
              </Button>
              <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
                Forgot your password?
              </Anchor>
              <Divider label="or" labelPosition="center" />
              <Button
                component="a"
                href={ssoHref ?? '#sso'}
                variant="default"
                fullWidth
                loading={discovery.isPending}
                onClick={startSso}
              >
                Sign in with SSO
              </Button>
            </Stack>
          </form>
        </Paper>
      </Box>
    </Center>
  );
}
