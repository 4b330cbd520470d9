import { ActionIcon, CopyButton, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { SsoServiceProvider } from '@svc/contracts';
import { IconCheck, IconCopy } from '@tabler/icons-react';

function CopyField({ label, value }: { label: string; value: string }) {
  return (
    <TextInput
      label={label}
      value={value}
      readOnly
      rightSection={
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'}>
              <ActionIcon variant="subtle" onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}

export interface ServiceProviderPanelProps {
  sp: SsoServiceProvider;
  accountId: number;
}

/** What the administrator enters at the identity provider, and the link that starts SSO for their users. */
export function ServiceProviderPanel({ sp, accountId }: ServiceProviderPanelProps) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Enter these at your identity provider, or give it the metadata URL.
      </Text>
      <CopyField label="Metadata URL" value={sp.metadata_url} />
      <Group grow align="flex-start">
        <CopyField label="Entity ID (audience)" value={sp.entity_id} />
        <CopyField label="Assertion consumer URL" value={sp.acs_url} />
      </Group>
      <CopyField label="Sign-in link for your users" value={`${window.location.origin}/login?account=${accountId}`} />
      <Text size="xs" c="dimmed">
        People of a claimed e-mail domain only need their address; everyone else needs this link, or the account ID{' '}
        {accountId}.
      </Text>
    </Stack>
  );
}

/** The service provider's addresses before any setting exists, computed the way the server does. */
export function serviceProviderFor(accountId: number): SsoServiceProvider {
  const metadata = `${window.location.origin}/sso/saml/metadata?account=${accountId}`;
  return {
    entity_id: metadata,
    metadata_url: metadata,
    acs_url: `${window.location.origin}/sso/saml/acs?account=${accountId}`,
  };
}
