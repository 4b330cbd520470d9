import { Autocomplete, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { AdvancedConfig, TargetType } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { databasesQueryOptions } from '../../lib/resources';
import { TableReview } from './TableReview';

export interface ReviewSettings {
  name: string;
  database: string;
  scheduleType: string;
  scheduleOption: string;
  timezone: string;
}

export interface ReviewStepProps {
  settings: ReviewSettings;
  onSettings: (next: ReviewSettings) => void;
  tables: AdvancedConfig[];
  available: Record<string, { name: string; source_type: string; options: TargetType[] }[]>;
  onTables: (next: AdvancedConfig[]) => void;
}

const SCHEDULES = [
  { value: 'none', label: 'Only when run by hand' },
  { value: 'hourly', label: 'Hourly (minute)' },
  { value: 'daily', label: 'Daily (HH:MM)' },
  { value: 'weekly', label: 'Weekly (DAY HH:MM)' },
  { value: 'monthly', label: 'Monthly (D HH:MM)' },
  { value: 'minutes_interval', label: 'Every N minutes' },
  { value: 'cron', label: 'Cron expression' },
];

/** Step 3: the guessed configuration to review and edit, the target database, the name and the schedule. */
export function ReviewStep({ settings, onSettings, tables, available, onTables }: ReviewStepProps) {
  const databases = useQuery(databasesQueryOptions());
  const set = (patch: Partial<ReviewSettings>) => onSettings({ ...settings, ...patch });
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Integration name"
          value={settings.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
        />
        <Autocomplete
          label="Target database"
          description="Created when it does not exist yet"
          data={(databases.data ?? []).map((d) => d.name)}
          value={settings.database}
          onChange={(v) => set({ database: v })}
        />
        <Select
          label="Schedule"
          data={SCHEDULES}
          value={settings.scheduleType}
          allowDeselect={false}
          onChange={(v) => set({ scheduleType: v ?? 'none' })}
        />
        {settings.scheduleType !== 'none' && (
          <SimpleGrid cols={2}>
            <TextInput
              label="Schedule option"
              value={settings.scheduleOption}
              onChange={(e) => set({ scheduleOption: e.currentTarget.value })}
            />
            <TextInput
              label="Time zone"
              value={settings.timezone}
              onChange={(e) => set({ timezone: e.currentTarget.value })}
            />
          </SimpleGrid>
        )}
      </SimpleGrid>
      {tables.map((t, i) => (
        <TableReview
          key={`${t.config.schema}.${t.config.table}`}
          config={t}
          available={available[`${t.config.schema}.${t.config.table}`] ?? []}
          onChange={(next) => onTables(tables.map((x, j) => (j === i ? next : x)))}
        />
      ))}
    </Stack>
  );
}
