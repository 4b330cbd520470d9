import { Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { DELIMITERS, delimiterProblem, MAX_HEADER_ROW } from './model/delimited';
import type { ReadSettings } from './model/types';

const DELIMITER_LABELS: Record<string, string> = { ',': 'Comma', '\t': 'Tab', ';': 'Semicolon', '|': 'Pipe' };
const OTHER = 'other';
const HEADER_ROWS = [
  { value: '0', label: 'No header' },
  ...Array.from({ length: MAX_HEADER_ROW }, (_, i) => ({ value: String(i + 1), label: `Row ${i + 1}` })),
];

export interface DelimitedSettingsProps {
  name: string;
  settings: ReadSettings;
  onChange: (overrides: Partial<ReadSettings>) => void;
}

/** CSV/TSV settings of one file: the delimiter (one of the usual ones or any character) and the header row. */
export function DelimitedSettings({ name, settings, onChange }: DelimitedSettingsProps) {
  const standard = (DELIMITERS as readonly string[]).includes(settings.delimiter);
  const [other, setOther] = useState(!standard);
  const [typed, setTyped] = useState(standard ? '' : settings.delimiter);
  const problem = typed === '' ? null : delimiterProblem(typed);
  const headerRow = settings.header ? String((settings.skipRows ?? 0) + 1) : '0';
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Select
        aria-label={`Delimiter of ${name}`}
        size="xs"
        w={120}
        data={[
          ...DELIMITERS.map((d) => ({ value: d, label: DELIMITER_LABELS[d] ?? d })),
          { value: OTHER, label: 'Other…' },
        ]}
        value={other ? OTHER : settings.delimiter}
        allowDeselect={false}
        onChange={(v) => {
          if (!v) return;
          setOther(v === OTHER);
          if (v !== OTHER) onChange({ delimiter: v });
        }}
      />
      {other && (
        <TextInput
          aria-label={`Custom delimiter of ${name}`}
          placeholder="e.g. #"
          size="xs"
          w={70}
          value={typed}
          error={problem}
          onChange={(e) => {
            const value = e.currentTarget.value.slice(-1);
            setTyped(value);
            if (value !== '' && delimiterProblem(value) === null) onChange({ delimiter: value });
          }}
        />
      )}
      <Select
        aria-label={`Header row of ${name}`}
        size="xs"
        w={120}
        data={HEADER_ROWS}
        value={headerRow}
        allowDeselect={false}
        onChange={(v) => {
          if (v === null) return;
          const row = Number(v);
          onChange({ header: row > 0, skipRows: row > 0 ? row - 1 : 0 });
        }}
      />
    </Group>
  );
}
