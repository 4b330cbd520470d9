import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { type Aggregate, type ChartKind, type ChartSpec, chartData } from '../../../components/charts/chartData';
import { LazyChart } from '../../../components/charts/LazyChart';
import { QueryError } from '../../../components/QueryError';
import { resourceKeys } from '../../../lib/resources';
import type { Column } from '../shared/format';
import { fetchJsonLines } from '../shared/jsonLines';

/**
 * The Chart tab of a result: bar, line, area or pie of the x, y and series columns picked here. It charts up to
 * CHART_ROWS rows (the grid's preview when that holds the whole result, else read once for the chart), grouped
 * and bucketed into a few hundred points before anything is drawn (components/charts/chartData.ts).
 */

const CHART_ROWS = 100_000;

const chartRowsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...resourceKeys.jobs.one(id), 'chart-rows'] as const,
    queryFn: ({ signal }) =>
      fetchJsonLines(`/v3/job/result/${encodeURIComponent(id)}?format=json`, CHART_ROWS, signal).then((r) => ({
        rows: r.lines as unknown[][],
        truncated: r.truncated,
      })),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
  });

const KINDS: { value: ChartKind; label: string }[] = [
  { value: 'bar', label: 'Bar' },
  { value: 'line', label: 'Line' },
  { value: 'area', label: 'Area' },
  { value: 'pie', label: 'Pie' },
];
const AGGREGATES: { value: Aggregate; label: string }[] = [
  { value: 'sum', label: 'Sum' },
  { value: 'avg', label: 'Average' },
];
const NUMERIC_TYPE = /int|long|double|float|real|decimal|numeric|bigint/i;
const COUNT = 'count';
const NONE = 'none';

/** Columns whose type is a number, or, untyped, whose first values are numbers. */
function numericColumns(columns: Column[], rows: readonly unknown[][]): number[] {
  const sample = rows.slice(0, 50);
  return columns.flatMap((c, i) => {
    if (NUMERIC_TYPE.test(c.type)) return [i];
    const values = sample.map((r) => r[i]).filter((v) => v !== null && v !== undefined);
    return values.length > 0 && values.every((v) => typeof v === 'number') ? [i] : [];
  });
}

interface Picks {
  kind: ChartKind;
  x: string;
  y: string;
  series: string;
  aggregate: Aggregate;
}

function firstPicks(columns: Column[], numeric: number[]): Picks {
  const x = columns.findIndex((_, i) => !numeric.includes(i));
  const xIndex = Math.max(x, 0);
  const y = numeric.find((i) => i !== xIndex);
  return { kind: 'bar', x: String(xIndex), y: y === undefined ? COUNT : String(y), series: NONE, aggregate: 'sum' };
}

function specOf(p: Picks): ChartSpec {
  return {
    kind: p.kind,
    x: Number(p.x),
    y: p.y === COUNT ? null : Number(p.y),
    series: p.series === NONE ? null : Number(p.series),
    aggregate: p.y === COUNT ? 'count' : p.aggregate,
  };
}

export interface ResultChartProps {
  jobId: string;
  columns: Column[];
  /** The grid's rows, when they are the whole result. */
  wholeResult: unknown[][] | null;
}

export function ResultChart({ jobId, columns, wholeResult }: ResultChartProps) {
  const read = useQuery({ ...chartRowsQueryOptions(jobId), enabled: wholeResult === null });
  const rows = wholeResult ?? read.data?.rows;
  if (!rows) {
    return read.isError ? (
      <QueryError title="The rows to chart could not be loaded" error={read.error} onRetry={() => read.refetch()} />
    ) : (
      <CenteredLoader label="Loading the rows to chart" height={300} />
    );
  }
  return <ChartOfRows columns={columns} rows={rows} truncated={read.data?.truncated === true} />;
}

function ChartOfRows({ columns, rows, truncated }: { columns: Column[]; rows: unknown[][]; truncated: boolean }) {
  const numeric = useMemo(() => numericColumns(columns, rows), [columns, rows]);
  const [picks, setPicks] = useState<Picks>(() => firstPicks(columns, numeric));
  const deferred = useDeferredValue(picks);
  // The picks object changes only on a pick, so the grouping reruns only then.
  const spec = useMemo(() => specOf(deferred), [deferred]);
  const yName = spec.y === null ? 'rows' : (columns[spec.y]?.name ?? '');
  const data = useMemo(() => chartData(rows, spec, yName), [rows, spec, yName]);
  const set = (patch: Partial<Picks>) => setPicks((p) => ({ ...p, ...patch }));
  const columnChoices = columns.map((c, i) => ({ value: String(i), label: c.name }));
  const measure = spec.y === null ? 'Count of rows' : `${spec.aggregate === 'avg' ? 'Average' : 'Sum'} of ${yName}`;
  const xName = columns[spec.x]?.name ?? '';
  const label = `${KINDS.find((k) => k.value === spec.kind)?.label} chart of ${measure} by ${xName}${
    spec.series !== null && spec.kind !== 'pie' ? ` and ${columns[spec.series]?.name}` : ''
  }, ${data.points.length} points`;
  return (
    <Stack gap="sm">
      <Group align="flex-end" gap="sm">
        <SegmentedControl
          aria-label="Chart type"
          data={KINDS}
          value={picks.kind}
          onChange={(v) => set({ kind: v as ChartKind })}
        />
        <Select
          label="X"
          data={columnChoices}
          value={picks.x}
          onChange={(v) => v !== null && set({ x: v })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label="Y"
          data={[
            ...numeric.map((i) => ({ value: String(i), label: columns[i]?.name ?? '' })),
            { value: COUNT, label: 'Count of rows' },
          ]}
          value={picks.y}
          onChange={(v) => v !== null && set({ y: v })}
          allowDeselect={false}
          w={160}
        />
        <Select
          label="Aggregate"
          data={AGGREGATES}
          value={picks.aggregate}
          onChange={(v) => v !== null && set({ aggregate: v as Aggregate })}
          disabled={picks.y === COUNT}
          allowDeselect={false}
          w={120}
        />
        <Select
          label="Series"
          data={[{ value: NONE, label: 'None' }, ...columnChoices]}
          value={picks.series}
          onChange={(v) => v !== null && set({ series: v })}
          disabled={picks.kind === 'pie'}
          allowDeselect={false}
          w={160}
        />
      </Group>
      <Text size="xs" c="dimmed" aria-live="polite">
        {rows.length.toLocaleString()} rows
        {truncated ? ` (the first ${CHART_ROWS.toLocaleString()} of the result)` : ''} in {data.groups.toLocaleString()}{' '}
        groups.{data.note ? ` ${data.note}` : ''}
      </Text>
      <LazyChart label={label} kind={spec.kind} data={data} height={360} stacked />
    </Stack>
  );
}
