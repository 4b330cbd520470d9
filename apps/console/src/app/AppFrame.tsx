import { AppShell, Burger, Button, Divider, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Me } from '@svc/contracts';
import {
  IconArrowsExchange,
  IconBook2,
  IconBookmarks,
  IconCalendarTime,
  IconDatabase,
  IconHome,
  IconKey,
  IconListCheck,
  IconListDetails,
  IconLogout,
  IconPlugConnected,
  IconRoute,
  IconShieldLock,
  IconTerminal2,
  IconTruckLoading,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useSignOut } from '../features/auth';
import { DemoBanner } from '../features/demo';
import { NavItem } from './NavItem';
import { MAIN_CONTENT_ID, mainContentClass, SkipLink } from './SkipLink';

export interface AppFrameProps {
  me: Me;
  children: ReactNode;
}

/**
 * Header and navigation around every signed-in page. Only areas that exist, and that the user can use, are
 * listed: administration is hidden from members (its pages still explain themselves at their address).
 */
export function AppFrame({ me, children }: AppFrameProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const signOut = useSignOut();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} size="lg">
              SVC
            </Text>
            <Divider orientation="vertical" />
            <Text fw={500} truncate="end">
              {me.accountName}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed" visibleFrom="xs" truncate="end">
              {me.email}
            </Text>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconLogout size={16} />}
              loading={signOut.isPending}
              onClick={() => signOut.mutate()}
            >
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <AppShell.Section grow>
          <NavItem to="/overview" label="Overview" icon={<IconHome size={18} />} onNavigate={close} />
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6} mt="sm">
            Data
          </Text>
          <NavItem to="/data/databases" label="Databases" icon={<IconDatabase size={18} />} onNavigate={close} />
          <NavItem to="/data/query" label="Query" icon={<IconTerminal2 size={18} />} onNavigate={close} />
          <NavItem to="/data/jobs" label="Jobs" icon={<IconListCheck size={18} />} onNavigate={close} />
          <NavItem
            to="/data/saved-queries"
            label="Saved queries"
            icon={<IconBookmarks size={18} />}
            onNavigate={close}
          />
          <NavItem
            to="/data/schedules"
            label="Scheduled queries"
            icon={<IconCalendarTime size={18} />}
            onNavigate={close}
          />
          <NavItem to="/data/bulk-loads" label="Bulk loads" icon={<IconTruckLoading size={18} />} onNavigate={close} />
          <NavItem to="/data/sync" label="Warehouse sync" icon={<IconArrowsExchange size={18} />} onNavigate={close} />
          <NavItem
            to="/data/connections"
            label="Connections"
            icon={<IconPlugConnected size={18} />}
            onNavigate={close}
          />
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6} mt="sm">
            Audiences
          </Text>
          <NavItem
            to="/parent-segments"
            label="Parent segments"
            icon={<IconUsersGroup size={18} />}
            onNavigate={close}
          />
          <NavItem to="/journeys" label="Journeys" icon={<IconRoute size={18} />} onNavigate={close} />
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6} mt="sm">
            Settings
          </Text>
          {me.administrator && (
            <NavItem to="/settings/users" label="Users" icon={<IconUsers size={18} />} onNavigate={close} />
          )}
          <NavItem to="/settings/api-keys" label="API keys" icon={<IconKey size={18} />} onNavigate={close} />
          {me.administrator && (
            <>
              <NavItem
                to="/settings/sso"
                label="Single sign-on"
                icon={<IconShieldLock size={18} />}
                onNavigate={close}
              />
              <NavItem
                to="/settings/audit-log"
                label="Audit log"
                icon={<IconListDetails size={18} />}
                onNavigate={close}
              />
            </>
          )}
        </AppShell.Section>
        <AppShell.Section>
          {/* A server page, not a console route: a normal link so it loads as its own document. */}
          <NavLink component="a" href="/api-reference" label="API reference" leftSection={<IconBook2 size={18} />} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} className={mainContentClass}>
        <DemoBanner userId={me.id} />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
