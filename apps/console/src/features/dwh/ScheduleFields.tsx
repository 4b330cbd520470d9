import { Select, SimpleGrid, TextInput } from '@mantine/core';

export interface Schedule {
  scheduleType: string;
  scheduleOption: string;
  timezone: string;
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

/** When a sync runs: its schedule type, the option that type takes, and the time zone. */
export function ScheduleFields({ value, onChange }: { value: Schedule; onChange: (next: Schedule) => void }) {
  return (
    <>
      <Select
        label="Schedule"
        data={SCHEDULES}
        value={value.scheduleType}
        allowDeselect={false}
        onChange={(v) => onChange({ ...value, scheduleType: v ?? 'none' })}
      />
      {value.scheduleType !== 'none' && (
        <SimpleGrid cols={2}>
          <TextInput
            label="Schedule option"
            value={value.scheduleOption}
            onChange={(e) => onChange({ ...value, scheduleOption: e.currentTarget.value })}
          />
          <TextInput
            label="Time zone"
            value={value.timezone}
            onChange={(e) => onChange({ ...value, timezone: e.currentTarget.value })}
          />
        </SimpleGrid>
      )}
    </>
  );
}
