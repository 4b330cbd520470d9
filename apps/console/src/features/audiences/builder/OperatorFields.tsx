import { Checkbox, Group, NativeSelect, TextInput } from '@mantine/core';
import type { AudienceColumnType } from '@svc/contracts';
import type { DraftOperator } from '../rules/draft';
import { newOperator } from '../rules/draft';
import { OPERATORS, operatorsFor, TIME_UNITS } from '../rules/operators';

export interface OperatorFieldsProps {
  columnType: AudienceColumnType | undefined;
  operator: DraftOperator;
  onChange: (operator: DraftOperator) => void;
}

/** Operator picker suited to the column type, the value inputs the operator needs, and its `not`. */
export function OperatorFields({ columnType, operator, onChange }: OperatorFieldsProps) {
  const offered = operatorsFor(columnType ?? 'string');
  const info = OPERATORS[operator.type];
  const set = (changes: Partial<DraftOperator>) => onChange({ ...operator, ...changes });
  const dateOrText = info.time ? 'date' : 'text';
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Checkbox label="Not" checked={operator.not} onChange={(e) => set({ not: e.currentTarget.checked })} mb={8} />
      <NativeSelect
        label="Operator"
        disabled={columnType === undefined}
        data={offered.map((o) => ({ value: o, label: OPERATORS[o].label }))}
        value={operator.type}
        onChange={(e) =>
          onChange({ ...newOperator(e.currentTarget.value as DraftOperator['type']), not: operator.not })
        }
      />
      {info.input === 'one' && (
        <TextInput
          label={info.time ? 'Date' : 'Value'}
          type={dateOrText}
          value={operator.value}
          onChange={(e) => set({ value: e.currentTarget.value })}
        />
      )}
      {info.input === 'two' && (
        <>
          <TextInput
            label="From"
            type={dateOrText}
            value={operator.value}
            onChange={(e) => set({ value: e.currentTarget.value })}
          />
          <TextInput
            label="To"
            type={dateOrText}
            value={operator.value2}
            onChange={(e) => set({ value2: e.currentTarget.value })}
          />
        </>
      )}
      {info.input === 'list' && (
        <TextInput
          label="Values"
          description="Separated by commas"
          value={operator.value}
          onChange={(e) => set({ value: e.currentTarget.value })}
        />
      )}
      {info.input === 'amount' && (
        <>
          <TextInput
            label="Amount"
            inputMode="numeric"
            w={96}
            value={operator.value}
            onChange={(e) => set({ value: e.currentTarget.value })}
          />
          <NativeSelect
            label="Unit"
            data={TIME_UNITS.map((u) => ({ value: u.value, label: u.label }))}
            value={operator.unit}
            onChange={(e) => set({ unit: e.currentTarget.value as DraftOperator['unit'] })}
          />
        </>
      )}
    </Group>
  );
}
