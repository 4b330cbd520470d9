import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown instead of a blank page when rendering a route throws: a bug, not something the user did. */
export function RouteError() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : null;
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={520} ta="center">
        <title>Something went wrong · SVC console</title>
        <Title order={1} size="h2">
          Something went wrong
        </Title>
        <Text>This page failed to display. Reloading usually helps; if it does not, tell your administrator.</Text>
        {detail && (
          <Text size="sm" c="dimmed">
            {detail}
          </Text>
        )}
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Stack>
    </Center>
  );
}
