import { Code, Stack, Table, Text } from '@mantine/core';
import type { SsoLastTest } from '@svc/contracts';

/** What the last Test SSO asserted: the NameID, the attributes, and the user of this account it maps to. */
export function TestDetails({ test }: { test: SsoLastTest }) {
  const attributes = Object.entries(test.attributes);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Last test {new Date(test.at).toLocaleString()}:{' '}
        {test.outcome === 'passed' ? 'passed' : `failed (${test.reason})`}.
      </Text>
      <Table aria-label="Last Test SSO" variant="vertical" withTableBorder>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={160}>NameID</Table.Th>
            <Table.Td>
              {test.name_id === null ? 'none (refused before the assertion was read)' : <Code>{test.name_id}</Code>}
            </Table.Td>
          </Table.Tr>
          {test.name_id_format && (
            <Table.Tr>
              <Table.Th>NameID format</Table.Th>
              <Table.Td>{test.name_id_format}</Table.Td>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th>Maps to user</Table.Th>
            <Table.Td>
              {test.user
                ? `${test.user.name ? `${test.user.name} · ` : ''}${test.user.email} (SSO ${test.user.sso_mode})`
                : 'No user of this account has this NameID as SSO identifier'}
            </Table.Td>
          </Table.Tr>
          {test.message && (
            <Table.Tr>
              <Table.Th>Refusal</Table.Th>
              <Table.Td>{test.message}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {attributes.length === 0 ? (
        <Text size="sm">The assertion carried no attributes.</Text>
      ) : (
        <Table aria-label="Asserted attributes" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Attribute</Table.Th>
              <Table.Th>Values</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {attributes.map(([name, values]) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>{values.join(', ')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
