import { Badge, Button, Group, Menu, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { ConsoleUser } from '@svc/contracts';
import { Timestamp } from '../../components/Timestamp';
import { removalBlocker } from './removalBlocker';

export interface UsersTableProps {
  users: ConsoleUser[];
  currentUserId: number;
  onRemove: (user: ConsoleUser) => void;
  onEdit: (user: ConsoleUser) => void;
  /** Opens a password reset link for the user (not for users who sign in with SSO only). */
  onResetLink: (user: ConsoleUser) => void;
  /** Opens enable / enforce / disable SSO for the user. */
  onSsoChange: (user: ConsoleUser, change: 'enable_sso' | 'enforce_sso' | 'disable_sso') => void;
}

const SSO_LABEL = { disabled: 'Password', enabled: 'Password or SSO', enforced: 'SSO only' } as const;

function SsoCell({ user }: { user: ConsoleUser }) {
  return (
    <>
      <Badge
        variant="light"
        color={user.ssoMode === 'enforced' ? 'violet' : user.ssoMode === 'enabled' ? 'indigo' : 'gray'}
      >
        {SSO_LABEL[user.ssoMode]}
      </Badge>
      {user.ssoIdentifier && (
        <Text size="xs" c="dimmed" mt={2}>
          {user.ssoIdentifier}
        </Text>
      )}
    </>
  );
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

export function UsersTable({ users, currentUserId, onRemove, onEdit, onResetLink, onSsoChange }: UsersTableProps) {
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Owner</Table.Th>
            <Table.Th>Sign-in</Table.Th>
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
                  <Badge variant="light" color={user.administrator ? 'indigo' : 'gray'}>
                    {user.administrator ? 'Administrator' : 'Member'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <YesNo value={user.accountOwner} />
                </Table.Td>
                <Table.Td>
                  <SsoCell user={user} />
                </Table.Td>
                <Table.Td>
                  <Timestamp value={user.createdAt} />
                </Table.Td>
                <Table.Td ta="right">
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Button size="xs" variant="subtle" aria-label={`Edit ${user.name}`} onClick={() => onEdit(user)}>
                      Edit
                    </Button>
                    {user.ssoMode !== 'enforced' && (
                      <Button
                        size="xs"
                        variant="subtle"
                        aria-label={`Password reset link for ${user.name}`}
                        onClick={() => onResetLink(user)}
                      >
                        Reset link
                      </Button>
                    )}
                    <Menu position="bottom-end">
                      <Menu.Target>
                        <Button size="xs" variant="subtle" aria-label={`SSO for ${user.name}`}>
                          SSO
                        </Button>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item
                          disabled={user.ssoMode === 'enabled'}
                          onClick={() => onSsoChange(user, 'enable_sso')}
                        >
                          Enable SSO
                        </Menu.Item>
                        <Menu.Item
                          disabled={user.ssoMode === 'enforced'}
                          onClick={() => onSsoChange(user, 'enforce_sso')}
                        >
                          Enforce SSO
                        </Menu.Item>
                        <Menu.Item
                          color="red"
                          disabled={user.ssoMode === 'disabled'}
                          onClick={() => onSsoChange(user, 'disable_sso')}
                        >
                          Disable SSO
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
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
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
