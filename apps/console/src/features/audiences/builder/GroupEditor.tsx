import { Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { DraftGroup, DraftNode } from '../rules/draft';
import { isGroup, newBehavior, newGroup, newSegmentRef, newValue } from '../rules/draft';
import { BehaviorConditionEditor } from './BehaviorConditionEditor';
import { type BuilderColumn, patch, useBuilder } from './builderContext';
import { ConditionFrame } from './ConditionFrame';
import { SegmentConditionEditor } from './SegmentConditionEditor';
import { ValueConditionEditor } from './ValueConditionEditor';

export interface GroupEditorProps {
  group: DraftGroup;
  /** "Rule" for the whole rule; nested groups are named after their place ("Condition 2"). */
  label: string;
  columns: BuilderColumn[];
  /** Behavior and segment conditions exist only at the profile level, not inside a behavior's filter. */
  allowBehaviors: boolean;
  /** Set for nested groups: they get a frame with Exclude and Remove. */
  framed?: boolean;
}

const childLabel = (parent: string, i: number) => (parent === 'Rule' ? `Condition ${i + 1}` : `${parent}.${i + 1}`);

/** An And/Or group: its conditions (nestable) and the buttons that add more. */
export function GroupEditor({ group, label, columns, allowBehaviors, framed = false }: GroupEditorProps) {
  const builder = useBuilder();
  const add = (node: DraftNode) => builder.append(group.key, node);
  const body = (
    <Stack gap="sm">
      <NativeSelect
        label={framed || label !== 'Rule' ? `Match (${label})` : 'Match'}
        w={260}
        data={[
          { value: 'And', label: 'all of these (And)' },
          { value: 'Or', label: 'any of these (Or)' },
        ]}
        value={group.type}
        onChange={(e) => patch(builder, group, { type: e.currentTarget.value as DraftGroup['type'] })}
      />
      {group.conditions.length === 0 && (
        <Text size="sm" c="dimmed">
          {allowBehaviors ? 'No conditions: every profile matches.' : 'No filter: every row counts.'}
        </Text>
      )}
      {group.conditions.map((node, i) => {
        const name = childLabel(label, i);
        if (isGroup(node)) {
          return (
            <GroupEditor
              key={node.key}
              group={node}
              label={name}
              columns={columns}
              allowBehaviors={allowBehaviors}
              framed
            />
          );
        }
        if (node.type === 'Behavior')
          return (
            <BehaviorConditionEditor
              key={node.key}
              node={node}
              label={name}
              renderFilter={(props) => <GroupEditor {...props} />}
            />
          );
        if (node.type === 'Segment') return <SegmentConditionEditor key={node.key} node={node} label={name} />;
        return <ValueConditionEditor key={node.key} node={node} label={name} columns={columns} />;
      })}
      <Group gap="xs">
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => add(newValue())}>
          {allowBehaviors ? 'Add attribute condition' : 'Add column condition'}
        </Button>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() => add(newGroup(group.type === 'And' ? 'Or' : 'And'))}
        >
          Add group
        </Button>
        {allowBehaviors && (
          <>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => add(newBehavior())}>
              Add behavior condition
            </Button>
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => add(newSegmentRef())}>
              Add segment condition
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );
  if (!framed) {
    return (
      <Paper withBorder={label !== 'Rule'} p={label === 'Rule' ? 0 : 'sm'} radius="sm" role="group" aria-label={label}>
        {body}
      </Paper>
    );
  }
  return (
    <ConditionFrame
      label={label}
      kind={group.type === 'And' ? 'All of' : 'Any of'}
      exclude={group.exclude}
      onExclude={(exclude) => patch(builder, group, { exclude })}
      onRemove={() => builder.remove(group.key)}
    >
      {body}
    </ConditionFrame>
  );
}
