import { Alert, Checkbox, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { columnNameProblem } from './model/columnName';
import { planProblems } from './model/convert';
import { COLUMN_TYPES, type ColumnType, type SourceValue } from './model/types';
import { sampleRows, useWizard } from './wizardStore';

const PREVIEW_ROWS = 20;

export const cellText = (v: SourceValue) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** Preview of the first rows, with each column's name, type and whether it is imported. */
export function ColumnsStep() {
  const files = useWizard((s) => s.files);
  const columns = useWizard((s) => s.columns);
  const time = useWizard((s) => s.time);
  const setColumn = useWizard((s) => s.setColumn);
  const rows = sampleRows(files).slice(0, PREVIEW_ROWS);
  const timeColumn = time.mode === 'column' ? time.column : null;
  const problems = planProblems(columns, time, columnNameProblem);
  if (columns.length === 0) {
    return <Text c="dimmed">No columns found yet: add a file with data, or check its type and delimiter.</Text>;
  }
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The first {rows.length} rows. Types were inferred from them: whole numbers are long, other numbers double,
        anything else string (codes with leading zeros stay strings). Rename, retype or leave out columns here.
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
                  <Table.Td key={c.source} c={c.skip ? 'dimmed' : undefined}>
                    <Text size="xs" truncate="end" maw={240}>
                      {cellText(row[c.source])}
                    </Text>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
