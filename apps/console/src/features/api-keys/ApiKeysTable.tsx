import { Badge, Button, Code, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ConsoleApiKey } from '@svc/contracts';
import { Timestamp } from '../../components/Timestamp';
import { keyTypes } from './keyTypes';

export interface ApiKeysTableProps {
  apiKeys: ConsoleApiKey[];
  onRevoke: (apiKey: ConsoleApiKey) => void;
}

export function ApiKeysTable({ apiKeys, onRevoke }: ApiKeysTableProps) {
  if (apiKeys.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        You have no API keys. Create one to call the REST API from a program.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Type</Table.Th>
            <Table.Th>Key</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {apiKeys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>
                <Badge color={keyTypes[key.type].color} variant="light">
                  {keyTypes[key.type].label}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Code>{key.masked}</Code>
              </Table.Td>
              <Table.Td>
                <Timestamp value={key.createdAt} />
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
