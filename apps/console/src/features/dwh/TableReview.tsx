import {
  Alert,
  Checkbox,
  CloseButton,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { AdvancedConfig, SyncMode, TargetType } from '@svc/contracts';

export interface TableReviewProps {
  config: AdvancedConfig;
  /** Every column the guess found, with the types it may take (kept so unticked columns can come back). */
  available: { name: string; source_type: string; options: TargetType[] }[];
  onChange: (next: AdvancedConfig) => void;
  /** Offers to remove the table from the sync (when editing). */
  onRemove?: () => void;
}

const MODES: { value: SyncMode; label: string }[] = [
  { value: 'append', label: 'Incremental append' },
  { value: 'merge', label: 'Incremental append + dedup by key' },
  { value: 'replace', label: 'Full refresh (replace the table)' },
];

const MODE_HELP: Record<SyncMode, string> = {
  append: 'Each run adds the rows past the incremental column. An updated row is added again.',
  merge:
    'Each run adds new rows and replaces the older row of the same key: one row per key, the newest by the incremental column.',
  replace: 'Each run reads every row and replaces the whole table.',
};

/** One table of the guess: target name, columns and their types, mode, incremental column, time column. */
export function TableReview({ config, available, onChange, onRemove }: TableReviewProps) {
  const t = config.config;
  const source = `${t.schema}.${t.table}`;
  const set = (patch: Partial<AdvancedConfig['config']>) => onChange({ ...config, config: { ...t, ...patch } });
  const chosen = new Map(t.columns.map((c) => [c.name, c.type]));
  const toggle = (name: string, on: boolean) => {
    const order = available.map((a) => a.name);
    const next = on
      ? [...t.columns, { name, type: (available.find((a) => a.name === name)?.options[0] ?? 'string') as TargetType }]
      : t.columns.filter((c) => c.name !== name);
    next.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    set({
      columns: next,
      time_column: t.time_column && !on && t.time_column === name ? null : t.time_column,
      ...(t.merge_keys ? { merge_keys: t.merge_keys.filter((k) => on || k !== name) } : {}),
    });
  };
  const setType = (name: string, type: TargetType) =>
    set({ columns: t.columns.map((c) => (c.name === name ? { ...c, type } : c)) });
  const incremental = t.incremental && t.incremental_columns?.[0] ? t.incremental_columns[0] : '';
  const mode = t.mode ?? 'append';
  const keys = t.merge_keys?.length ? t.merge_keys : (t.primary_key ?? []);

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {source}
          </Title>
          {onRemove && <CloseButton aria-label={`Remove ${source}`} onClick={onRemove} />}
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <TextInput
            label={`Target table for ${source}`}
            value={config.target_table}
            onChange={(e) => onChange({ ...config, target_table: e.currentTarget.value })}
          />
          <Select
            label={`Mode for ${source}`}
            data={MODES}
            value={mode}
            allowDeselect={false}
            onChange={(v) => set({ mode: (v ?? 'append') as SyncMode, merge_keys: keys })}
          />
          <Select
            label={`Incremental column for ${source}`}
            data={[
              { value: '', label: 'None: read every row' },
              ...(t.incremental_candidates ?? []).map((c) => ({ value: c, label: c })),
            ]}
            value={incremental}
            allowDeselect={false}
            onChange={(v) => set({ incremental: Boolean(v), incremental_columns: v ? [v] : [] })}
          />
          <Select
            label={`Time column for ${source}`}
            data={[
              { value: '', label: 'Upload time' },
              ...t.columns
                .filter((c) => available.find((a) => a.name === c.name)?.options.includes('long'))
                .map((c) => ({ value: c.name, label: c.name })),
            ]}
            value={t.time_column ?? ''}
            allowDeselect={false}
            onChange={(v) => set({ time_column: v || null })}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {MODE_HELP[mode]}
        </Text>
        {mode === 'merge' && (
          <>
            <MultiSelect
              label={`Key for ${source}`}
              description={
                t.primary_key?.length
                  ? `Guessed from the primary key (${t.primary_key.join(', ')}); the columns that identify a row.`
                  : 'The table has no primary key: choose the columns that identify a row.'
              }
              data={t.columns.map((c) => c.name)}
              value={keys}
              onChange={(v) => set({ merge_keys: v })}
              maw={480}
            />
            {!incremental && (
              <Text size="sm" c="red">
                Choose an incremental column: it tells which row of a key is the newest.
              </Text>
            )}
            <Alert color="yellow" variant="light" title="Deletes are not copied">
              A row deleted in the warehouse stays in this table. Re-sync from scratch to drop such rows.
            </Alert>
          </>
        )}
        <Table aria-label={`Columns of ${source}`} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Load</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th>Source type</Table.Th>
              <Table.Th>Type</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {available.map((a) => (
              <Table.Tr key={a.name}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Load ${a.name}`}
                    checked={chosen.has(a.name)}
                    onChange={(e) => toggle(a.name, e.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>{a.name}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {a.source_type}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`Type of ${a.name}`}
                    data={a.options}
                    value={chosen.get(a.name) ?? a.options[0] ?? null}
                    disabled={!chosen.has(a.name)}
                    allowDeselect={false}
                    onChange={(v) => v && setType(a.name, v as TargetType)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {(t.skipped ?? []).length > 0 && (
          <Text size="sm" c="dimmed">
            Skipped: {(t.skipped ?? []).map((s) => `${s.column} (${s.source_type}: ${s.reason})`).join('; ')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
