import { Checkbox, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CenteredLoader } from '../../components/CenteredLoader';
import { QueryError } from '../../components/QueryError';
import { schemasQueryOptions, tablesQueryOptions } from './api';

export interface TablesStepProps {
  authId: number;
  schema: string;
  onSchema: (schema: string) => void;
  selected: string[];
  onSelected: (tables: string[]) => void;
}

/** Step 2: browse the warehouse's schemas and pick the tables to copy. */
export function TablesStep({ authId, schema, onSchema, selected, onSelected }: TablesStepProps) {
  const schemas = useQuery(schemasQueryOptions(authId));
  const tables = useQuery(tablesQueryOptions(authId, schema));
  if (schemas.isError)
    return (
      <QueryError title="The warehouse could not be browsed" error={schemas.error} onRetry={() => schemas.refetch()} />
    );
  return (
    <Stack gap="md">
      <Select
        label="Schema"
        data={(schemas.data ?? []).map((s) => s.name)}
        value={schema}
        allowDeselect={false}
        onChange={(v) => {
          onSchema(v ?? 'public');
          onSelected([]);
        }}
      />
      {tables.isPending ? (
        <CenteredLoader label="Loading tables" />
      ) : tables.isError ? (
        <QueryError title="Tables could not be listed" error={tables.error} onRetry={() => tables.refetch()} />
      ) : tables.data.length === 0 ? (
        <Text c="dimmed">This schema has no tables the authentication may read.</Text>
      ) : (
        <Checkbox.Group label="Tables to copy" value={selected} onChange={onSelected}>
          <Stack gap={6} mt="xs">
            {tables.data.map((t) => (
              <Checkbox
                key={t.name}
                value={t.name}
                label={`${t.name}${t.kind === 'view' ? ' (view)' : ''}`}
                description={t.estimated_rows === null ? undefined : `about ${t.estimated_rows.toLocaleString()} rows`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
}
