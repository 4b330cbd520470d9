import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CenteredLoader } from '../../components/CenteredLoader';
import { QueryError } from '../../components/QueryError';
import { featureQueryOptions, useSetFeature } from './api';

/** Shows its children once the beta is on for the account; otherwise says so, with the switch for administrators. */
export function FeatureGate({ children }: { children: ReactNode }) {
  const feature = useQuery(featureQueryOptions());
  const enable = useSetFeature();
  if (feature.isPending) return <CenteredLoader label="Checking the warehouse sync feature" />;
  if (feature.isError)
    return (
      <QueryError title="The feature could not be checked" error={feature.error} onRetry={() => feature.refetch()} />
    );
  if (feature.data.enabled) return <>{children}</>;
  return (
    <Alert color="blue" title="Warehouse sync (beta) is off for this account">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          An administrator can turn it on. Syncs copy tables from a PostgreSQL warehouse into databases here.
        </Text>
        <Button size="xs" loading={enable.isPending} onClick={() => enable.mutate(true)}>
          Enable warehouse sync
        </Button>
        {enable.isError && (
          <Text size="sm" c="red">
            {enable.error.message}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
