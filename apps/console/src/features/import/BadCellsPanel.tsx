import { Alert, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { badCount, type FieldProfile, narrowestFitting } from './model/profile';
import type { ColumnPlan, InvalidFix } from './model/types';

const count = (n: number) => n.toLocaleString('en-US');

export interface BadCellsPanelProps {
  fields: FieldProfile[];
  columns: ColumnPlan[];
  timeColumn: string | null;
  onChange: (source: string, patch: Partial<ColumnPlan>) => void;
}

/**
 * Cells that will not convert to their column's chosen type, found by the whole-file scan before anything
 * is encoded: how many, the first few with their rows, and the bulk fix (skip the rows, set the cells to
 * null, or change the column's type to one every cell fits).
 */
export function BadCellsPanel({ fields, columns, timeColumn, onChange }: BadCellsPanelProps) {
  const flagged = columns.flatMap((c) => {
    const field = fields.find((f) => f.name === c.source);
    if (!field || c.skip || c.source === timeColumn || c.type === 'string') return [];
    const bad = badCount(field, c.type);
    return bad > 0 ? [{ plan: c, field, bad }] : [];
  });
  if (flagged.length === 0) return null;
  return (
    <Alert color="orange" title="Cells that will not convert" data-testid="bad-cells">
      <Stack gap="sm">
        {flagged.map(({ plan, field, bad }) => {
          const type = plan.type as 'long' | 'double';
          const fallback = narrowestFitting(field);
          return (
            <Stack key={plan.source} gap={4} aria-label={`Cells of ${plan.source} that will not convert`}>
              <Text size="sm" fw={500}>
                {plan.source}: {count(bad)} of {count(field.filled)} cells will not convert to {type}
              </Text>
              <Text size="xs" c="dimmed">
                {field.bad[type].map((b) => `${b.file} row ${count(b.row)}: ${b.value}`).join(' · ')}
                {bad > field.bad[type].length ? ' · …' : ''}
              </Text>
              <Group gap="xs">
                <SegmentedControl
                  size="xs"
                  aria-label={`Fix for ${plan.source}`}
                  value={plan.onInvalid ?? 'skip'}
                  onChange={(v) => onChange(plan.source, { onInvalid: v as InvalidFix })}
                  data={[
                    { value: 'skip', label: 'Skip those rows' },
                    { value: 'null', label: 'Set those cells to null' },
                  ]}
                />
                <Button size="compact-xs" variant="default" onClick={() => onChange(plan.source, { type: fallback })}>
                  Change the type to {fallback}
                </Button>
              </Group>
            </Stack>
          );
        })}
      </Stack>
    </Alert>
  );
}
