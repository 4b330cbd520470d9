import { Autocomplete, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { type AdvancedConfig, newDataNameProblem, type TargetType } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { databasesQueryOptions } from '../../lib/resources';
import { type Schedule, ScheduleFields } from './ScheduleFields';
import { TableReview } from './TableReview';

export interface ReviewSettings extends Schedule {
  name: string;
  database: string;
}

export interface ReviewStepProps {
  settings: ReviewSettings;
  onSettings: (next: ReviewSettings) => void;
  tables: AdvancedConfig[];
  available: Record<string, { name: string; source_type: string; options: TargetType[] }[]>;
  onTables: (next: AdvancedConfig[]) => void;
}

/** Step 3: the guessed configuration to review and edit, the target database, the name and the schedule. */
export function ReviewStep({ settings, onSettings, tables, available, onTables }: ReviewStepProps) {
  const databases = useQuery(databasesQueryOptions());
  const set = (patch: Partial<ReviewSettings>) => onSettings({ ...settings, ...patch });
  const existing = (databases.data ?? []).map((d) => d.name);
  // A database that does not exist yet is created under the server's name rule (reserved names included).
  const databaseProblem =
    settings.database === '' || existing.includes(settings.database)
      ? null
      : newDataNameProblem(settings.database, 'database');
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
          data={existing}
          value={settings.database}
          error={databaseProblem ?? undefined}
          onChange={(v) => set({ database: v })}
        />
        <ScheduleFields value={settings} onChange={(next) => set(next)} />
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
