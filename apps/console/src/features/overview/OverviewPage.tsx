import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Me } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { accountSettingsQueryOptions, parentSegmentsQueryOptions } from '../../lib/resources';
import { PERMISSION_LABEL, useFolderAccess } from '../folder-permissions';
import { LiveFigures } from './LiveFigures';

export interface OverviewPageProps {
  currentUser: Me;
}

interface Area {
  to: string;
  label: string;
  what: string;
}

const WORK: Area[] = [
  { to: '/data/databases', label: 'Browse tables', what: 'The databases you import and sync, and their rows.' },
  { to: '/data/query', label: 'Ask in SQL', what: 'Queries over your tables; results as tables and files.' },
  { to: '/parent-segments', label: 'Build segments', what: 'Profiles built from your tables, and segments of them.' },
  { to: '/journeys', label: 'Open the journey canvas', what: 'Move profiles through stages, tests and activations.' },
  {
    to: '/settings/api-keys',
    label: 'Keys for your programs',
    what: 'API keys for programs that call the API as you.',
  },
];
const ADMINISTRATION: Area[] = [
  {
    to: '/settings/users',
    label: 'People and roles',
    what: 'Add people, set their role and the default folder access.',
  },
  { to: '/settings/sso', label: 'Identity provider', what: 'Single sign-on through your identity provider.' },
  { to: '/settings/audit-log', label: 'Who changed what', what: 'The audit log: every change, and every sign-in.' },
];

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Areas({ areas }: { areas: Area[] }) {
  return (
    <Stack gap="xs">
      {areas.map((a) => (
        <div key={a.to}>
          <Anchor component={Link} to={a.to} fw={500}>
            {a.label}
          </Anchor>
          <Text size="sm" c="dimmed">
            {a.what}
          </Text>
        </div>
      ))}
    </Stack>
  );
}

/** Your access in each parent segment (its root folder), known before you start work. */
function ParentSegmentAccess() {
  const parents = useQuery(parentSegmentsQueryOptions());
  const list = parents.data ?? [];
  const accessIn = useFolderAccess(list.map((p) => p.rootFolderId));
  if (parents.isPending) return <Text c="dimmed">Loading parent segments…</Text>;
  if (list.length === 0)
    return <Text c="dimmed">No parent segments yet. Whoever creates one gets Full Control on it.</Text>;
  return (
    <Table aria-label="Your access to parent segments" verticalSpacing="xs">
      <Table.Tbody>
        {list.map((p) => {
          const access = accessIn(p.rootFolderId);
          return (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Anchor component={Link} to={`/parent-segments/${p.id}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">
                {access && (
                  <Badge variant="light" color={access === 'full_control' ? 'teal' : 'gray'}>
                    {PERMISSION_LABEL[access]}
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** Where everyone lands after sign-in: the account's live figures, who they are here, what they may do, and where to go. */
export function OverviewPage({ currentUser }: OverviewPageProps) {
  const settings = useQuery(accountSettingsQueryOptions());
  const fallback = settings.data?.defaultFolderPermission;
  const admin = currentUser.administrator;
  return (
    <>
      <PageHeader title="Overview" description={`Signed in to ${currentUser.accountName} as ${currentUser.email}.`} />
      <LiveFigures />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card title="Your access">
          <Stack gap="sm">
            <Group gap="xs">
              <Text size="sm">Role:</Text>
              <Badge variant="light" color={admin ? 'indigo' : 'gray'}>
                {admin ? 'Administrator' : 'Member'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {admin
                ? 'You have Full Control in every folder, and you manage users, API keys, single sign-on, folder permissions and the audit log.'
                : `In folders of parent segments and journeys you have what an administrator granted you there; where nothing is granted, ${fallback ? PERMISSION_LABEL[fallback] : '…'} (the account default). With View you can look but not change; actions you cannot take are shown disabled, with the reason.`}
            </Text>
            <Text size="sm" fw={500}>
              Your access to parent segments
            </Text>
            <ParentSegmentAccess />
          </Stack>
        </Card>
        <Card title="Work">
          <Areas areas={WORK} />
        </Card>
        {admin && (
          <Card title="Administration">
            <Areas areas={ADMINISTRATION} />
          </Card>
        )}
      </SimpleGrid>
    </>
  );
}
