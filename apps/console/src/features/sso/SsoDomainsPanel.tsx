import { Alert, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import type { Me } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { QueryError } from '../../components/QueryError';
import { ssoDomainsQueryOptions, useClaimSsoDomain, useReleaseSsoDomain } from './api';

/**
 * The e-mail domains whose people the sign-in page sends to this account's identity provider. An
 * administrator claims the domain of their own address (decision 0037): no DNS check is possible here.
 */
export function SsoDomainsPanel({ currentUser, ssoConfigured }: { currentUser: Me; ssoConfigured: boolean }) {
  const domains = useQuery(ssoDomainsQueryOptions());
  const claim = useClaimSsoDomain();
  const release = useReleaseSsoDomain();
  const ownDomain = currentUser.email.split('@').pop() ?? '';
  const [domain, setDomain] = useState(ownDomain);

  const onClaim = (event: FormEvent) => {
    event.preventDefault();
    claim.mutate(domain.trim());
  };

  if (domains.isError) {
    return (
      <QueryError title="The domains could not be loaded" error={domains.error} onRetry={() => domains.refetch()} />
    );
  }
  const rows = domains.data ?? [];
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        People who enter an address at a claimed domain on the sign-in page go straight to your identity provider
        {ssoConfigured ? '' : ' once single sign-on is set up'}. You can claim the domain of your own e-mail address;
        another administrator claims theirs.
      </Text>
      {rows.length > 0 && (
        <Table aria-label="Claimed domains">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Domain</Table.Th>
              <Table.Th>Claimed by</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.domain}>
                <Table.Td>{d.domain}</Table.Td>
                <Table.Td>{d.claimed_by}</Table.Td>
                <Table.Td>{new Date(d.created_at).toLocaleDateString()}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Release ${d.domain}`}
                    loading={release.isPending && release.variables === d.domain}
                    onClick={() => release.mutate(d.domain)}
                  >
                    Release
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(claim.error || release.error) && (
        <Alert color="red" title="Not changed">
          {(claim.error ?? release.error)?.message}
        </Alert>
      )}
      <form onSubmit={onClaim}>
        <Group align="flex-end">
          <TextInput
            label="Domain to claim"
            value={domain}
            onChange={(e) => setDomain(e.currentTarget.value)}
            maxLength={253}
          />
          <Button type="submit" variant="light" loading={claim.isPending}>
            Claim domain
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
