import { Group, NativeSelect } from '@mantine/core';
import type { DraftValue } from '../rules/draft';
import { newOperator } from '../rules/draft';
import { operatorsFor } from '../rules/operators';
import { type BuilderColumn, patch, useBuilder } from './builderContext';
import { ConditionFrame } from './ConditionFrame';
import { OperatorFields } from './OperatorFields';

export interface ValueConditionEditorProps {
  node: DraftValue;
  label: string;
  /** Attributes, or a behavior's columns inside a behavior filter. */
  columns: BuilderColumn[];
}

/** `column operator value`: the operators follow the column's type; time filters only on timestamps. */
export function ValueConditionEditor({ node, label, columns }: ValueConditionEditorProps) {
  const builder = useBuilder();
  const column = columns.find((c) => c.name === node.column);
  return (
    <ConditionFrame
      label={label}
      kind="Attribute"
      exclude={node.exclude}
      onExclude={(exclude) => patch(builder, node, { exclude })}
      onRemove={() => builder.remove(node.key)}
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Column"
          data={[
            { value: '', label: 'Choose a column' },
            ...columns.map((c) => ({ value: c.name, label: `${c.name} (${c.type})` })),
          ]}
          value={node.column}
          onChange={(e) => {
            const next = columns.find((c) => c.name === e.currentTarget.value);
            const offered = operatorsFor(next?.type ?? 'string');
            const operator = offered.includes(node.operator.type) ? node.operator : newOperator(offered[0] ?? 'Equal');
            patch(builder, node, { column: e.currentTarget.value, operator });
          }}
        />
        <OperatorFields
          columnType={column?.type}
          operator={node.operator}
          onChange={(operator) => patch(builder, node, { operator })}
        />
      </Group>
    </ConditionFrame>
  );
}
