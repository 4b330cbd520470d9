import { Alert, Checkbox, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { BadCellsPanel } from './BadCellsPanel';
import { KeysTable } from './KeysTable';
import { columnNameProblem } from './model/columnName';
import { planProblems } from './model/convert';
import { convertValue } from './model/infer';
import { leftOutKeys } from './model/match';
import { COLUMN_TYPES, type ColumnPlan, type ColumnType, type SourceValue } from './model/types';
import { keysLeftOutText } from './summaryText';
import { sampleRows, useWizard, wholeProfile } from './wizardStore';

const PREVIEW_ROWS = 20;

export const cellText = (v: SourceValue) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** A preview cell; one that will not convert to its column's type is marked, with the reason. */
function PreviewCell({ plan, value, isTime }: { plan: ColumnPlan; value: SourceValue; isTime: boolean }) {
  const converted = plan.skip || isTime ? null : convertValue(value, plan.type);
  const bad = converted !== null && !converted.ok;
  return (
    <Table.Td c={plan.skip ? 'dimmed' : bad ? 'red' : undefined} data-bad={bad || undefined}>
      <Text size="xs" truncate="end" maw={240} title={bad ? `Will not convert: ${converted.reason}` : undefined}>
        {cellText(value)}
      </Text>
    </Table.Td>
  );
}

/** Preview of the first rows, with each column's name, type and whether it is imported. */
export function ColumnsStep() {
  const files = useWizard((s) => s.files);
  const columns = useWizard((s) => s.columns);
  const time = useWizard((s) => s.time);
  const setColumn = useWizard((s) => s.setColumn);
  const rows = sampleRows(files).slice(0, PREVIEW_ROWS);
  const timeColumn = time.mode === 'column' ? time.column : null;
  const problems = planProblems(columns, time, columnNameProblem);
  const profile = useMemo(() => wholeProfile(files), [files]);
  const leftOut = leftOutKeys(columns, time);
  if (columns.length === 0) {
    return <Text c="dimmed">No columns found yet: add a file with data, or check its type and delimiter.</Text>;
  }
  return (
    <Stack>
      {profile && (
        <>
          <Text size="sm" c="dimmed">
            Every row was read: {profile.rows.toLocaleString('en-US')} rows, {profile.fields.length} keys. Types fit
            every value: whole numbers are long, other numbers double, anything else string (codes with leading zeros
            stay strings). {keysLeftOutText(leftOut)}.
          </Text>
          {profile.moreKeys > 0 && (
            <Alert color="orange" title="Too many distinct keys">
              {profile.moreKeys.toLocaleString('en-US')} more keys were found beyond the first{' '}
              {profile.fields.length.toLocaleString('en-US')}; they are not imported. Keys made of ids usually mean the
              data should be reshaped first.
            </Alert>
          )}
          {profile.unreadable > 0 && (
            <Text size="sm" c="orange">
              {profile.unreadable.toLocaleString('en-US')} records could not be read at all; they will be rejected and
              listed when the rows are encoded.
            </Text>
          )}
          <KeysTable
            fields={profile.fields}
            rows={profile.rows}
            columns={columns}
            timeColumn={timeColumn}
            onType={(source, type) => setColumn(source, { type })}
          />
          <BadCellsPanel fields={profile.fields} columns={columns} timeColumn={timeColumn} onChange={setColumn} />
        </>
      )}
      <Text size="sm" c="dimmed">
        The first {rows.length} rows. Rename, retype or leave out columns here.
      </Text>
      {problems.length > 0 && (
        <Alert color="red" title="Fix these column names to continue">
          {problems.map((p) => (
            <Text key={p} size="sm">
              {p}
            </Text>
          ))}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={columns.length * 170} maxHeight={520}>
        <Table aria-label="Preview of the data" striped withColumnBorders stickyHeader>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.source} miw={160} style={{ verticalAlign: 'top' }}>
                  <Stack gap={4}>
                    <Checkbox
                      size="xs"
                      label={c.source}
                      aria-label={`Import column ${c.source}`}
                      checked={!c.skip}
                      onChange={(e) => setColumn(c.source, { skip: !e.currentTarget.checked })}
                    />
                    {c.source === timeColumn ? (
                      <Text size="xs" c="blue">
                        becomes the time
                      </Text>
                    ) : (
                      <>
                        <TextInput
                          size="xs"
                          aria-label={`Name of column ${c.source}`}
                          value={c.name}
                          disabled={c.skip}
                          error={!c.skip && columnNameProblem(c.name) !== null}
                          onChange={(e) => setColumn(c.source, { name: e.currentTarget.value })}
                        />
                        <Select
                          size="xs"
                          aria-label={`Type of column ${c.source}`}
                          data={[...COLUMN_TYPES]}
                          value={c.type}
                          disabled={c.skip}
                          allowDeselect={false}
                          onChange={(v) => v && setColumn(c.source, { type: v as ColumnType })}
                        />
                      </>
                    )}
                  </Stack>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => (
              // Sample rows have no identity beyond their position.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are a fixed sample
              <Table.Tr key={i}>
                {columns.map((c) => (
                  <PreviewCell key={c.source} plan={c} value={row[c.source]} isTime={c.source === timeColumn} />
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
