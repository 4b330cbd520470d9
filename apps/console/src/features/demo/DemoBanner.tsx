import { Alert, Button, Group, List, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { demoQueryOptions, useDeleteDemo } from './api';

/**
 * Says what the demo of the first start put in this account, with a one-click delete for administrators.
 * Shows nothing once the demo is deleted (or when there never was one).
 */
export function DemoBanner({ administrator }: { administrator: boolean }) {
  const demo = useQuery(demoQueryOptions());
  const remove = useDeleteDemo();
  const [confirming, setConfirming] = useState(false);
  const items = demo.data ?? [];
  if (items.length === 0) return null;
  return (
    <Alert
      role="region"
      aria-label="Demo data"
      color="grape"
      icon={<IconFlask size={20} />}
      title="This account holds demo data"
      mb="lg"
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
