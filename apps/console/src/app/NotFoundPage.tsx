import { Button, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** An unknown console URL, shown inside the frame so the navigation stays at hand. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack align="flex-start" gap="sm" py="xl">
      <title>Page not found · SVC console</title>
      <Text c="dimmed" fw={700}>
        404
      </Text>
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text>
        There is no page at <code>{pathname}</code>. It may have moved, or the address may be mistyped.
      </Text>
      <Button component={Link} to="/overview" variant="light" mt="sm">
        Go to the overview
      </Button>
    </Stack>
  );
}
