import { Anchor, CloseButton, Group, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconFlask } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useMatch } from 'react-router';
import { demoQueryOptions } from './api';
import { DEMO_PANEL_ID } from './DemoPanel';

/**
 * One line above every signed-in page while the account holds the demo of the first start: it says so and
 * leads to the Overview, where the demo is described and deleted (so the Overview itself shows no banner).
 * Each user can hide it; hidden stays hidden for that user in this browser.
 */
export function DemoBanner({ userId }: { userId: number }) {
  const demo = useQuery(demoQueryOptions());
  const [hidden, setHidden] = useLocalStorage({ key: `svc.demoBannerHidden.${userId}`, defaultValue: false });
  const onOverview = useMatch('/overview') !== null;
  const count = demo.data?.length ?? 0;
  if (count === 0 || hidden || onOverview) return null;
  return (
    <Group
      role="region"
      aria-label="Demo data notice"
      gap="xs"
      wrap="nowrap"
      px="sm"
      py={4}
      mb="md"
      bg="grape.0"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      <IconFlask size={16} aria-hidden />
      <Text size="sm" style={{ flex: 1 }}>
        This account holds demo data ({count === 1 ? '1 item' : `${count} items`}).{' '}
        <Anchor component={Link} to={`/overview#${DEMO_PANEL_ID}`} size="sm">
          See what it is, or delete it, on the Overview
        </Anchor>
      </Text>
      <CloseButton size="sm" aria-label="Hide the demo data notice" onClick={() => setHidden(true)} />
    </Group>
  );
}
