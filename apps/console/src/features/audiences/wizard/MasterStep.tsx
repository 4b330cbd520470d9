import { NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { databasesQueryOptions, tablesQueryOptions } from '../catalogApi';
import type { WizardState } from './wizardState';

export interface MasterStepProps {
  state: WizardState;
  onChange: (next: WizardState) => void;
}

const choose = (label: string, values: string[]) => [
  { value: '', label },
  ...values.map((v) => ({ value: v, label: v })),
];

/** Name, and the master table whose key column identifies a profile. */
export function MasterStep({ state, onChange }: MasterStepProps) {
  const databases = useQuery(databasesQueryOptions());
  const tables = useQuery(tablesQueryOptions(state.database));
  const master = tables.data?.find((t) => t.name === state.table);
  return (
    <Stack gap="md" maw={520}>
      <TextInput
        label="Name"
        required
        value={state.name}
        onChange={(e) => onChange({ ...state, name: e.currentTarget.value })}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        value={state.description}
        onChange={(e) => onChange({ ...state, description: e.currentTarget.value })}
      />
      <NativeSelect
        label="Database"
        description="Where the master table and the behavior tables are."
        required
        data={choose(databases.isPending ? 'Loading…' : 'Choose a database', databases.data ?? [])}
        error={databases.error?.message}
        value={state.database}
        onChange={(e) =>
          onChange({
            ...state,
            database: e.currentTarget.value,
            table: '',
            parentKey: '',
            attributes: [],
            behaviors: [],
          })
        }
      />
      <NativeSelect
        label="Master table"
        description="One or more rows per customer; each distinct key is one profile."
        required
        disabled={state.database === ''}
        data={choose(
          'Choose a table',
          (tables.data ?? []).map((t) => t.name),
        )}
        error={tables.error?.message}
        value={state.table}
        onChange={(e) => onChange({ ...state, table: e.currentTarget.value, parentKey: '', attributes: [] })}
      />
      <NativeSelect
        label="Key column"
        description="The column that identifies a customer, e.g. customer_id."
        required
        disabled={master === undefined}
        data={choose(
          'Choose a column',
          (master?.columns ?? []).map((c) => c.name),
        )}
        value={state.parentKey}
        onChange={(e) => onChange({ ...state, parentKey: e.currentTarget.value })}
      />
    </Stack>
  );
}
