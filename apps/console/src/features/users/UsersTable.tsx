import { Badge, Button, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { ConsoleUser } from '@svc/contracts';
import { Timestamp } from '../../components/Timestamp';
import { removalBlocker } from './removalBlocker';

export interface UsersTableProps {
  users: ConsoleUser[];
  currentUserId: number;
  onRemove: (user: ConsoleUser) => void;
}

function YesNo({ value }: { value: boolean }) {
  return value ? (
    <Badge variant="light" color="indigo">
      Yes
    </Badge>
  ) : (
    <Text size="sm" c="dimmed">
      No
    </Text>
  );
}

export function UsersTable({ users, currentUserId, onRemove }: UsersTableProps) {
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Administrator</Table.Th>
            <Table.Th>Owner</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((user) => {
            const blocker = removalBlocker(user, currentUserId);
            const label = `Remove ${user.name}`;
            return (
              <Table.Tr key={user.id}>
                <Table.Td fw={500}>{user.name}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>
                  <YesNo value={user.administrator} />
                </Table.Td>
                <Table.Td>
                  <YesNo value={user.accountOwner} />
                </Table.Td>
                <Table.Td>
                  <Timestamp value={user.createdAt} />
                </Table.Td>
                <Table.Td ta="right">
                  {blocker ? (
                    // data-disabled instead of disabled: a disabled button gets no hover or focus, so no tooltip.
                    <Tooltip label={blocker}>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        data-disabled
                        aria-disabled
                        aria-label={`${label}: ${blocker}`}
                        onClick={(e) => e.preventDefault()}
                      >
                        Remove
                      </Button>
                    </Tooltip>
                  ) : (
                    <Button size="xs" variant="subtle" color="red" aria-label={label} onClick={() => onRemove(user)}>
                      Remove
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
