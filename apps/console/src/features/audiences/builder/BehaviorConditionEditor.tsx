import { Group, NativeSelect, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import type { DraftBehavior, WindowType } from '../rules/draft';
import { newGroup } from '../rules/draft';
import { COUNT_OPERATORS, TIME_UNITS } from '../rules/operators';
import { patch, useBuilder } from './builderContext';
import { ConditionFrame } from './ConditionFrame';
import type { GroupEditorProps } from './GroupEditor';

export interface BehaviorConditionEditorProps {
  node: DraftBehavior;
  label: string;
  /** Draws the filter group (the group editor passes itself, so the two files do not import each other). */
  renderFilter: (props: GroupEditorProps) => ReactNode;
}

const WINDOWS: { value: WindowType; label: string }[] = [
  { value: 'Any', label: 'at any time' },
  { value: 'TimeWithinPast', label: 'within the past' },
  { value: 'TimeWithinNext', label: 'within the next' },
  { value: 'TimeRange', label: 'between the dates' },
  { value: 'TimeBefore', label: 'before' },
  { value: 'TimeAfter', label: 'after' },
];

/** The number of a behavior's rows (matching their own filters, with `time` in a window) compared to N. */
export function BehaviorConditionEditor({ node, label, renderFilter }: BehaviorConditionEditorProps) {
  const builder = useBuilder();
  const behavior = builder.behaviors.find((b) => b.name === node.behavior);
  const w = node.window;
  const setWindow = (changes: Partial<DraftBehavior['window']>) =>
    patch(builder, node, { window: { ...w, ...changes } });
  const setCount = (changes: Partial<DraftBehavior['count']>) =>
    patch(builder, node, { count: { ...node.count, ...changes } });
  return (
    <ConditionFrame
      label={label}
      kind="Behavior"
      exclude={node.exclude}
      onExclude={(exclude) => patch(builder, node, { exclude })}
      onRemove={() => builder.remove(node.key)}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Behavior"
          data={[
            { value: '', label: 'Choose a behavior' },
            ...builder.behaviors.map((b) => ({ value: b.name, label: b.name })),
          ]}
          value={node.behavior}
          onChange={(e) => patch(builder, node, { behavior: e.currentTarget.value, filter: newGroup() })}
        />
        <NativeSelect
          label="Count"
          data={COUNT_OPERATORS}
          value={node.count.type}
          onChange={(e) => setCount({ type: e.currentTarget.value as DraftBehavior['count']['type'] })}
        />
        <TextInput
          label="Number of rows"
          inputMode="numeric"
          w={110}
          value={node.count.value}
          onChange={(e) => setCount({ value: e.currentTarget.value })}
        />
        {node.count.type === 'Between' && (
          <TextInput
            label="Up to"
            inputMode="numeric"
            w={96}
            value={node.count.value2}
            onChange={(e) => setCount({ value2: e.currentTarget.value })}
          />
        )}
        <NativeSelect
          label="Window"
          description="On the row's time"
          data={WINDOWS}
          value={w.type}
          onChange={(e) => setWindow({ type: e.currentTarget.value as WindowType, value: '', value2: '' })}
        />
        {(w.type === 'TimeWithinPast' || w.type === 'TimeWithinNext') && (
          <>
            <TextInput
              label="Window amount"
              inputMode="numeric"
              w={110}
              value={w.value}
              onChange={(e) => setWindow({ value: e.currentTarget.value })}
            />
            <NativeSelect
              label="Window unit"
              data={TIME_UNITS.map((u) => ({ value: u.value, label: u.label }))}
              value={w.unit}
              onChange={(e) => setWindow({ unit: e.currentTarget.value as DraftBehavior['window']['unit'] })}
            />
          </>
        )}
        {(w.type === 'TimeRange' || w.type === 'TimeBefore' || w.type === 'TimeAfter') && (
          <TextInput
            label={w.type === 'TimeRange' ? 'Window from' : 'Window date'}
            type="date"
            value={w.value}
            onChange={(e) => setWindow({ value: e.currentTarget.value })}
          />
        )}
        {w.type === 'TimeRange' && (
          <TextInput
            label="Window to"
            type="date"
            value={w.value2}
            onChange={(e) => setWindow({ value2: e.currentTarget.value })}
          />
        )}
      </Group>
      {behavior && (
        <>
          <Text size="sm" c="dimmed">
            Count only the {behavior.name} rows that match:
          </Text>
          {renderFilter({
            group: node.filter,
            label: `${label} filter`,
            columns: behavior.schema.map((c) => ({ name: c.name, type: c.type })),
            allowBehaviors: false,
          })}
        </>
      )}
    </ConditionFrame>
  );
}
