import { Box, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { CenteredLoader } from '../CenteredLoader';
import type { ChartProps } from './Chart';

/** The chart, with the charting library fetched on first use (its own chunk). */
const Chart = lazy(() => import('./Chart').then((m) => ({ default: m.Chart })));

export interface LazyChartProps extends ChartProps {
  /** What the chart shows, for screen readers and tests (the drawing itself is an SVG). */
  label: string;
}

export function LazyChart({ label, ...props }: LazyChartProps) {
  if (props.data.points.length === 0) {
    return (
      <Text c="dimmed" size="sm" role="figure" aria-label={label}>
        Nothing to chart yet.
      </Text>
    );
  }
  return (
    <Box role="figure" aria-label={label} data-chart-kind={props.kind} data-points={props.data.points.length}>
      <Suspense fallback={<CenteredLoader label="Loading the chart" height={props.height} />}>
        <Chart {...props} />
      </Suspense>
    </Box>
  );
}
