import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { SsoMetadataSource } from '@svc/contracts';
import { IconRefresh, IconWorldDownload } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { InlineTime } from '../../components/Timestamp';
import { useFollowMetadataUrl, useRefreshMetadata, useStopFollowingMetadata } from './api';

/** The URL a followed setting is fetched from, its last fetches, and "Refresh now". */
function Followed({ source }: { source: SsoMetadataSource }) {
  const refresh = useRefreshMetadata();
  const stop = useStopFollowingMetadata();
  return (
    <Stack gap="xs" aria-label="Identity provider metadata URL">
      <Text size="sm">
        Filled from <Code style={{ wordBreak: 'break-all' }}>{source.url}</Code>, which this server fetches again on its
        schedule. Saving the form below by hand stops following the URL.
      </Text>
      <Text size="sm" c="dimmed">
        Last refreshed {source.refreshed_at ? <InlineTime value={source.refreshed_at} /> : 'never'}
        {source.checked_at && source.checked_at !== source.refreshed_at && (
          <>
            {' '}
            · last tried <InlineTime value={source.checked_at} />
          </>
        )}{' '}
        · next refresh <InlineTime value={source.next_refresh_at} />
      </Text>
      {source.error && (
        <Alert color="red" title="The last refresh failed">
          {source.error} The setting stays as the last successful refresh left it.
        </Alert>
      )}
      <Group>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={refresh.isPending}
          onClick={() =>
            refresh.mutate(undefined, {
              onSuccess: () => notifications.show({ color: 'teal', message: 'The metadata was refreshed.' }),
            })
          }
        >
          Refresh now
        </Button>
        <Button variant="subtle" color="gray" loading={stop.isPending} onClick={() => stop.mutate()}>
          Stop following the URL
        </Button>
      </Group>
    </Stack>
  );
}

/** The identity provider's metadata URL: the server fetches it, fills the setting, and keeps it current. */
export function MetadataUrlPanel({ source }: { source: SsoMetadataSource | null }) {
  const follow = useFollowMetadataUrl();
  const [url, setUrl] = useState('');
  if (source) return <Followed source={source} />;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    follow.mutate(url.trim(), {
      onSuccess: () => {
        setUrl('');
        notifications.show({ color: 'teal', message: 'The SSO setting was filled from the metadata and saved.' });
      },
    });
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="xs">
        {follow.error && (
          <Alert color="red" title="Metadata not used">
            {follow.error.message}
          </Alert>
        )}
        <Group align="flex-end">
          <TextInput
            style={{ flex: 1 }}
            label="Identity provider metadata URL"
            description="The identity provider's SAML metadata address (https). The setting is filled from it and refreshed on a schedule (daily by default), certificate changes included."
            placeholder="https://idp.example.com/saml/metadata"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <Button
            type="submit"
            variant="light"
            leftSection={<IconWorldDownload size={16} />}
            loading={follow.isPending}
            disabled={url.trim() === ''}
          >
            Fetch and use
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
