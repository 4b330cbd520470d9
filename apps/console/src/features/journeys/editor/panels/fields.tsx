import { Select, type SelectProps } from '@mantine/core';
import { useEnvironment } from '../EditorContext';

export interface SegmentPickerProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  value: string | null | undefined;
  onChange(segmentId: string | null): void;
}

/** A segment of the journey's parent segment; an unknown id stays visible so it can be replaced. */
export function SegmentPicker({ value, onChange, ...rest }: SegmentPickerProps) {
  const { segments } = useEnvironment();
  const data = segments.map((s) => ({ value: s.id, label: s.name }));
  if (value && !segments.some((s) => s.id === value)) data.push({ value, label: `Unknown segment ${value}` });
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage="No segment of this parent segment matches"
      data={data}
      value={value ?? null}
      onChange={(next) => onChange(next)}
      comboboxProps={{ withinPortal: true }}
      {...rest}
    />
  );
}
