import { Alert, Button, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { Me } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { ssoSettingQueryOptions, useDeleteSsoSetting, useSaveSsoSetting } from './api';
import { CertificateList } from './CertificateList';
import { MetadataUrlPanel } from './MetadataUrlPanel';
import { ServiceProviderPanel, serviceProviderFor } from './ServiceProviderPanel';
import { SsoDomainsPanel } from './SsoDomainsPanel';
import { SsoSettingForm } from './SsoSettingForm';
import { TestDetails } from './TestDetails';

export interface SsoSettingsPageProps {
  currentUser: Me;
}

const DESCRIPTION = 'Let people of this account sign in through your SAML identity provider.';

function TestOutcome() {
  const [params] = useSearchParams();
  const outcome = params.get('test');
  if (outcome === 'passed') {
    return (
      <Alert color="teal" title="Test SSO passed">
        The identity provider signed you in and the response passed every check. No session was created.
      </Alert>
    );
  }
  if (outcome === 'failed') {
    return (
      <Alert color="red" title="Test SSO failed">
        The response was refused ({params.get('reason') ?? 'unknown reason'}). The audit log has the details.
      </Alert>
    );
  }
  return null;
}

export function SsoSettingsPage({ currentUser }: SsoSettingsPageProps) {
  if (!currentUser.administrator) {
    return (
      <>
        <PageHeader title="Single sign-on" description={DESCRIPTION} />
        <Alert color="blue" title="Only administrators can configure single sign-on">
          Ask an administrator of {currentUser.accountName} to change it.
        </Alert>
      </>
    );
  }
  return <AdminSsoSettingsPage currentUser={currentUser} />;
}

function AdminSsoSettingsPage({ currentUser }: SsoSettingsPageProps) {
  const setting = useQuery(ssoSettingQueryOptions());
  const save = useSaveSsoSetting();
  const remove = useDeleteSsoSetting();

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete SSO setting',
      children: (
        <Text size="sm">
          Delete the single sign-on setting of {currentUser.accountName}? Everyone signed in through SSO is signed out.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () => notifications.show({ color: 'teal', message: 'The SSO setting was deleted.' }),
          onError: (e) => notifications.show({ color: 'red', title: 'Not deleted', message: e.message }),
        }),
    });

  if (setting.isPending) return <CenteredLoader label="Loading the SSO setting" />;
  if (setting.isError) {
    return (
      <QueryError title="The SSO setting could not be loaded" error={setting.error} onRetry={() => setting.refetch()} />
    );
  }
  const current = setting.data;
  return (
    <>
      <PageHeader
        title="Single sign-on"
        description={DESCRIPTION}
        action={
          current && (
            <Group>
              {/* A full navigation: the round trip leaves the console for the identity provider. */}
              <Button component="a" href="/sso/saml/test" variant="light">
                Test SSO
              </Button>
              <Button color="red" variant="subtle" onClick={confirmDelete}>
                Delete
              </Button>
            </Group>
          )
        }
      />
      <Stack gap="lg">
        <TestOutcome />
        {current?.last_test && (
          <Paper withBorder radius="md" p="lg">
            <Title order={2} size="h4" mb="sm">
              Test SSO details
            </Title>
            <TestDetails test={current.last_test} />
          </Paper>
        )}
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            This service
          </Title>
          <ServiceProviderPanel
            sp={current?.service_provider ?? serviceProviderFor(currentUser.accountId)}
            accountId={currentUser.accountId}
          />
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            Identity provider
          </Title>
          <MetadataUrlPanel source={current?.metadata ?? null} />
          <Divider
            my="md"
            label={current?.metadata ? 'The setting, as last fetched' : 'or enter the setting by hand'}
            labelPosition="left"
          />
          <SsoSettingForm
            key={current?.updated_at ?? 'new'}
            setting={current}
            saving={save.isPending}
            error={save.error?.message ?? null}
            onSave={(input) =>
              save.mutate(input, {
                onSuccess: () => notifications.show({ color: 'teal', message: 'The SSO setting was saved.' }),
              })
            }
          />
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} size="h4" mb="sm">
            E-mail domains
          </Title>
          <SsoDomainsPanel currentUser={currentUser} ssoConfigured={current !== null} />
        </Paper>
        {current && (
          <Paper withBorder radius="md" p="lg">
            <Title order={2} size="h4" mb="sm">
              Certificates
            </Title>
            <CertificateList
              certificates={current.certificates}
              warnings={current.warnings}
              followsMetadata={current.metadata !== null}
            />
          </Paper>
        )}
      </Stack>
    </>
  );
}
