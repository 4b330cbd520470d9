import { Alert, Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import type { Schedule } from '@svc/contracts';
import { useMemo, useState } from 'react';
import type { ApiError } from '../../../lib/api';
import { scheduleFieldOf, useCreateSchedule, useUpdateSchedule } from './api';
import { ResultTargetField } from './ResultTargetField';

const PRESETS = [
  { value: '@hourly', label: 'Hourly (at minute 0)' },
  { value: '@daily', label: 'Daily (at midnight)' },
  { value: '@weekly', label: 'Weekly (Sunday at midnight)' },
  { value: 'custom', label: 'Custom cron' },
  { value: '', label: 'Only when run by hand' },
];
/** The fields of this form, where a refusal naming one shows. */
const FIELDS = ['name', 'cron', 'timezone', 'delay', 'retry_limit', 'result'];
const presetOf = (cron: string) => (PRESETS.some((p) => p.value === cron) ? cron : 'custom');

function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

export interface ScheduleModalProps {
  /** Create: the query from the editor. */
  draft?: { database: string; type: string; query: string };
  /** Edit: the schedule as it is. */
  schedule?: Schedule;
  onClose: () => void;
  onDone: (schedule: Schedule) => void;
}

/**
 * Makes a scheduled query from the editor, or changes one: frequency (presets or a cron), time zone, delay,
 * retries and where the result goes. The server checks everything; its refusal shows at the field it names.
 */
export function ScheduleModal({ draft, schedule, onClose, onDone }: ScheduleModalProps) {
  const [name, setName] = useState(schedule?.name ?? '');
  const [preset, setPreset] = useState(schedule ? presetOf(schedule.cron ?? '') : '@daily');
  const [cron, setCron] = useState(schedule?.cron ?? '0 9 * * 1-5');
  const [timezone, setTimezone] = useState(
    schedule?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
  );
  const [delay, setDelay] = useState<number>(schedule?.delay ?? 0);
  const [retries, setRetries] = useState<number>(schedule?.retry_limit ?? 0);
  const [result, setResult] = useState(schedule?.result ?? '');
  const zones = useMemo(timeZones, []);
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const mutation = schedule ? update : create;
  const error = mutation.error;
  const field = scheduleFieldOf(error ? { message: error.message, status: (error as ApiError).status } : null);
  const at = (f: string) => (field === f ? error?.message : undefined);

  const submit = () => {
    const settings = {
      cron: preset === 'custom' ? cron : preset,
      timezone,
      delay,
      retry_limit: retries,
      // A masked result (credentials shown as ***) is left as it is unless changed.
      ...(schedule && result === schedule.result ? {} : { result }),
    };
    if (schedule) update.mutate({ name: schedule.name, ...settings }, { onSuccess: onDone });
    else if (draft) create.mutate({ name, ...settings, result, ...draft }, { onSuccess: onDone });
  };
  return (
    <Modal opened onClose={onClose} title={schedule ? `Edit schedule ${schedule.name}` : 'Schedule query'} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {!schedule && (
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={at('name')}
              data-autofocus
            />
          )}
          <Select
            label="Runs"
            data={PRESETS}
            value={preset}
            onChange={(v) => setPreset(v ?? '')}
            allowDeselect={false}
            error={preset !== 'custom' ? at('cron') : undefined}
          />
          {preset === 'custom' && (
            <TextInput
              label="Cron"
              description="minute hour day-of-month month day-of-week, e.g. 30 6 * * 1-5"
              value={cron}
              onChange={(e) => setCron(e.currentTarget.value)}
              error={at('cron')}
            />
          )}
          <Select
            label="Time zone"
            data={zones}
            value={timezone}
            onChange={(v) => setTimezone(v ?? 'UTC')}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No such time zone: pick one from the list, e.g. Europe/Berlin or UTC"
            error={at('timezone')}
          />
          <Group grow>
            <NumberInput
              label="Delay (seconds after each time)"
              min={0}
              value={delay}
              onChange={(v) => setDelay(Number(v) || 0)}
              error={at('delay')}
            />
            <NumberInput
              label="Retries of a failed run"
              min={0}
              max={32}
              value={retries}
              onChange={(v) => setRetries(Number(v) || 0)}
              error={at('retry_limit')}
            />
          </Group>
          <ResultTargetField
            value={result}
            onChange={setResult}
            database={draft?.database ?? schedule?.database ?? ''}
            error={at('result')}
          />
          {error && !(field && FIELDS.includes(field)) && (
            <Alert color="red" title="The schedule was not saved">
              {error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {schedule ? 'Save schedule' : 'Create schedule'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
