import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { newDataNameProblem } from '@svc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { databasesQueryOptions, resourceKeys, tablesQueryOptions } from '../../lib/resources';
import { createDatabase, createTable } from './api';
import { ColumnMatchTable } from './ColumnMatchTable';
import { keptColumns, matchColumns, parseSchema } from './model/match';
import { useWizard } from './wizardStore';

function CreateInline({
  label,
  onCreate,
  pending,
}: {
  label: 'database' | 'table';
  onCreate: (name: string) => void;
  pending: boolean;
}) {
  const [name, setName] = useState('');
  // The server's own rule (reserved names included), with its message.
  const problem = name === '' ? null : newDataNameProblem(name, label);
  const invalid = problem !== null;
  return (
    <Group align="flex-end" gap="xs">
      <TextInput
        label={`New ${label} name`}
        value={name}
        onChange={(e) => setName(e.currentTarget.value.trim())}
        error={problem ?? undefined}
        w={260}
      />
      <Button variant="default" disabled={name === '' || invalid} loading={pending} onClick={() => onCreate(name)}>
        Create {label}
      </Button>
    </Group>
  );
}

/** Choose the database and table to import into, or create them here. */
export function TargetStep() {
  const database = useWizard((s) => s.database);
  const table = useWizard((s) => s.table);
  const setTarget = useWizard((s) => s.setTarget);
  const columns = useWizard((s) => s.columns);
  const time = useWizard((s) => s.time);
  const queryClient = useQueryClient();
  const databases = useQuery(databasesQueryOptions());
  const tables = useQuery(tablesQueryOptions(database));
  const newDatabase = useMutation({
    mutationFn: createDatabase,
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: resourceKeys.databases.list() });
      setTarget({ database: r.database, table: '' });
    },
  });
  const newTable = useMutation({
    mutationFn: (name: string) => createTable(database, name),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: resourceKeys.databases.tables(database) });
      setTarget({ table: r.table });
    },
  });
  const target = tables.data?.find((t) => t.name === table);
  const matches = target ? matchColumns(keptColumns(columns, time), parseSchema(target.schema)) : [];
  const error = databases.error ?? tables.error ?? newDatabase.error ?? newTable.error;
  return (
    <Stack maw={640}>
      {error && <Alert color="red">{error.message}</Alert>}
      <Select
        label="Database"
        description={databases.isPending ? 'Loading the databases…' : undefined}
        data={(databases.data ?? []).map((d) => d.name)}
        value={database || null}
        searchable
        onChange={(v) => setTarget({ database: v ?? '', table: '' })}
        nothingFoundMessage="No database of that name"
      />
      <CreateInline label="database" pending={newDatabase.isPending} onCreate={(n) => newDatabase.mutate(n)} />
      {database !== '' && (
        <>
          <Select
            label="Table"
            description={tables.isPending ? 'Loading the tables…' : undefined}
            data={(tables.data ?? []).map((t) => t.name)}
            value={table || null}
            searchable
            onChange={(v) => setTarget({ table: v ?? '' })}
            nothingFoundMessage="No table of that name"
          />
          <CreateInline label="table" pending={newTable.isPending} onCreate={(n) => newTable.mutate(n)} />
        </>
      )}
      {database !== '' && table !== '' && (
        <Text size="sm">
          Rows will be added to{' '}
          <strong>
            {database}.{table}
          </strong>
          ; columns the table does not have yet are added to it just before the commit.
        </Text>
      )}
      {matches.length > 0 && <ColumnMatchTable matches={matches} table={table} />}
    </Stack>
  );
}
