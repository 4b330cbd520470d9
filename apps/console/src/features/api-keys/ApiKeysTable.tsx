import { Badge, Button, Code, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ConsoleApiKey } from '@svc/contracts';
import { Timestamp } from '../../components/Timestamp';
import { keyTypes } from './keyTypes';

export interface ApiKeysTableProps {
  apiKeys: ConsoleApiKey[];
  /** Shows whose each key is (an administrator looking at other users' keys). */
  showOwner: boolean;
  onRevoke: (apiKey: ConsoleApiKey) => void;
  /** What an empty list says. */
  empty: string;
}

function Expiry({ apiKey }: { apiKey: ConsoleApiKey }) {
  if (apiKey.expired) {
    return (
      <>
        <Badge color="red" variant="light">
          Expired
        </Badge>
        <Timestamp value={apiKey.expiresAt} />
      </>
    );
  }
  return <Timestamp value={apiKey.expiresAt} empty="never" />;
}

export function ApiKeysTable({ apiKeys, showOwner, onRevoke, empty }: ApiKeysTableProps) {
  if (apiKeys.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        {empty}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={showOwner ? 960 : 820} type="native">
      <Table verticalSpacing="sm" highlightOnHover aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Key</Table.Th>
            {showOwner && <Table.Th>Acts as</Table.Th>}
            <Table.Th>Created</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {apiKeys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td fw={500}>{key.name}</Table.Td>
              <Table.Td>
                <Badge color={keyTypes[key.type].color} variant="light" style={{ flexShrink: 0 }} miw="max-content">
                  {keyTypes[key.type].label}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Code style={{ whiteSpace: 'nowrap' }}>{key.masked}</Code>
              </Table.Td>
              {showOwner && <Table.Td>{key.ownerEmail}</Table.Td>}
              <Table.Td>
                <Timestamp value={key.createdAt} />
              </Table.Td>
              <Table.Td>
                <Expiry apiKey={key} />
              </Table.Td>
              <Table.Td>
                <Timestamp value={key.lastUsedAt} empty="never" />
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => onRevoke(key)}
                  aria-label={`Revoke ${key.masked}`}
                >
                  Revoke
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
