import { Alert, Button, Group, List, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { demoQueryOptions, useDeleteDemo } from './api';

/** The id of the panel on the Overview, the target of the banner's link. */
export const DEMO_PANEL_ID = 'demo-data';

/**
 * Says what the demo of the first start put in this account, with a one-click delete for administrators.
 * Shows nothing once the demo is deleted (or when there never was one).
 */
export function DemoPanel({ administrator }: { administrator: boolean }) {
  const demo = useQuery(demoQueryOptions());
  const remove = useDeleteDemo();
  const [confirming, setConfirming] = useState(false);
  const { hash } = useLocation();
  const panel = useRef<HTMLDivElement>(null);
  const items = demo.data ?? [];
  const shown = items.length > 0;
  // Reached from the banner's link: bring the panel into view.
  useEffect(() => {
    if (shown && hash === `#${DEMO_PANEL_ID}`) panel.current?.scrollIntoView({ block: 'nearest' });
  }, [shown, hash]);
  if (!shown) return null;
  return (
    <Alert
      ref={panel}
      id={DEMO_PANEL_ID}
      role="region"
      color="grape"
      icon={<IconFlask size={20} />}
      title="This account holds demo data"
      mt="lg"
    >
      <Text size="sm">
        Created on the first start so every page shows something working: a sample shop’s customers, orders and page
        views of the last 60 days, and what is built on them.
      </Text>
      <List size="sm" mt={4}>
        {items.map((item) => (
          <List.Item key={`${item.kind}:${item.ref}`}>{item.label}</List.Item>
        ))}
      </List>
      {administrator && (
        <Group mt="sm" gap="xs">
          {confirming ? (
            <>
              <Button color="red" size="xs" loading={remove.isPending} onClick={() => remove.mutate()}>
                Delete all demo data
              </Button>
              <Button variant="default" size="xs" disabled={remove.isPending} onClick={() => setConfirming(false)}>
                Keep it
              </Button>
            </>
          ) : (
            <Button variant="light" color="grape" size="xs" onClick={() => setConfirming(true)}>
              Delete demo data
            </Button>
          )}
          {remove.error && (
            <Text size="sm" c="red" role="alert">
              {remove.error.message}
            </Text>
          )}
        </Group>
      )}
    </Alert>
  );
}
