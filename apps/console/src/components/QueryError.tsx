import { Alert, Button, Group, Text } from '@mantine/core';

export interface QueryErrorProps {
  title: string;
  error: Error;
  onRetry?: () => void;
}

/** A failed load: the server's sentence and a way to try again. */
export function QueryError({ title, error, onRetry }: QueryErrorProps) {
  return (
    <Alert color="red" title={title}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{error.message}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Group>
    </Alert>
  );
}
