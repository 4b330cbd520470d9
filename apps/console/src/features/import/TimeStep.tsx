import { Alert, Group, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { cellText } from './ColumnsStep';
import { convertTime } from './model/time';
import type { TimeForm, TimePlan } from './model/types';
import { browserTimeZone, sampleRows, useWizard } from './wizardStore';

const FORMS: { value: TimeForm; label: string }[] = [
  { value: 'unix_s', label: 'Unix seconds' },
  { value: 'unix_ms', label: 'Unix milliseconds' },
  { value: 'unix_us', label: 'Unix microseconds' },
  { value: 'unix_ns', label: 'Unix nanoseconds' },
  { value: 'iso8601', label: 'ISO 8601' },
  { value: 'custom', label: 'Custom format' },
];

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

const utcText = (seconds: number) => `${new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')}`;

/** The time step: where each row's `time` comes from, and what that does to the sample rows. */
export function TimeStep() {
  const files = useWizard((s) => s.files);
  const columns = useWizard((s) => s.columns);
  const time = useWizard((s) => s.time);
  const setTime = useWizard((s) => s.setTime);
  const zones = useMemo(timeZones, []);
  const rows = sampleRows(files);
  const column: Extract<TimePlan, { mode: 'column' }> =
    time.mode === 'column'
      ? time
      : {
          mode: 'column',
          column: columns[0]?.source ?? '',
          form: 'iso8601',
          format: 'yyyy-MM-dd HH:mm:ss',
          timeZone: 'UTC',
        };
  const results =
    time.mode === 'column'
      ? rows.map((r) => ({ value: r[time.column], result: convertTime(r[time.column], time) }))
      : [];
  const rejected = results.filter((r) => !r.result.ok);
  const zoned = time.mode === 'column' && (time.form === 'iso8601' || time.form === 'custom');

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Every row needs a time (Unix seconds, UTC). Take it from a column, or give every row the time of this import.
      </Text>
      <SegmentedControl
        aria-label="Where the time comes from"
        w="fit-content"
        value={time.mode}
        data={[
          { value: 'column', label: 'From a column' },
          { value: 'import', label: 'Use the import time' },
        ]}
        onChange={(v) => setTime(v === 'import' ? { mode: 'import' } : column)}
      />
      {time.mode === 'column' && (
        <Group align="flex-start">
          <Select
            label="Time column"
            data={columns.map((c) => c.source)}
            value={time.column}
            allowDeselect={false}
            searchable
            onChange={(v) => v && setTime({ ...time, column: v })}
          />
          <Select
            label="Form"
            data={FORMS}
            value={time.form}
            allowDeselect={false}
            onChange={(v) => v && setTime({ ...time, form: v as TimeForm })}
          />
          {time.form === 'custom' && (
            <TextInput
              label="Format"
              description="yyyy MM dd HH mm ss SSS, hh with a, MMM, Z (+0100), ZZ (+01:00); text in '…'"
              value={time.format}
              onChange={(e) => setTime({ ...time, format: e.currentTarget.value })}
            />
          )}
          {zoned && (
            <Select
              label="Time zone"
              description="For times written without an offset"
              data={zones}
              value={time.timeZone}
              searchable
              allowDeselect={false}
              onChange={(v) => v && setTime({ ...time, timeZone: v })}
            />
          )}
        </Group>
      )}
      {time.mode === 'column' && zoned && time.timeZone === 'UTC' && browserTimeZone() !== 'UTC' && (
        <Text size="xs" c="dimmed">
          Your browser's time zone is {browserTimeZone()}; choose it above if the file's times are local times.
        </Text>
      )}
      {time.mode === 'import' && (
        <Alert color="blue">
          Every row gets the time the upload starts; the file's own columns are imported as they are.
        </Alert>
      )}
      {time.mode === 'column' && (
        <>
          <Text size="sm" role="status">
            {rejected.length === 0
              ? `All ${results.length} sample rows have a valid time.`
              : `${rejected.length} of ${results.length} sample rows have no valid time and would be rejected.`}{' '}
            Every row is checked before the upload.
          </Text>
          <Table aria-label="Time conversion of the sample rows" maw={720} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{time.column}</Table.Th>
                <Table.Th>time (UTC)</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...rejected, ...results.filter((r) => r.result.ok)].slice(0, 8).map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed sample
                <Table.Tr key={i}>
                  <Table.Td>
                    <Text size="xs">{cellText(r.value) || '(empty)'}</Text>
                  </Table.Td>
                  <Table.Td>
                    {r.result.ok ? (
                      <Text size="xs">
                        {utcText(r.result.time)}{' '}
                        <Text span c="dimmed" size="xs">
                          ({r.result.time})
                        </Text>
                      </Text>
                    ) : (
                      <Text size="xs" c="red">
                        Rejected: {r.result.reason}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
