import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ChartData, ChartKind } from './chartData';

/**
 * The charting library's drawing of prepared points (chartData.ts). Only LazyChart imports this file, so the
 * library loads in its own chunk when a chart is first shown, never with the first page.
 */

const COLORS = ['#228be6', '#40c057', '#fab005', '#fa5252', '#7950f2', '#15aabf', '#fd7e14', '#e64980', '#868e96'];

export interface ChartProps {
  kind: ChartKind;
  data: ChartData;
  height: number;
  /** Called with the index of the clicked point (bar or slice). */
  onPointClick?: (index: number) => void;
  /** Stack the series (bar and area). */
  stacked?: boolean;
}

const formatTick = (value: unknown) =>
  typeof value === 'number' ? new Intl.NumberFormat(undefined, { notation: 'compact' }).format(value) : String(value);

function Cartesian({ kind, data, onPointClick, stacked }: ChartProps) {
  const common = { data: data.points, margin: { top: 8, right: 16, bottom: 8, left: 8 } };
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" vertical={false} />,
    <XAxis key="x" dataKey="x" tickFormatter={formatTick} minTickGap={16} />,
    <YAxis key="y" tickFormatter={formatTick} width={56} />,
    <Tooltip key="tooltip" isAnimationActive={false} />,
  ];
  const legend = data.series.length > 1 ? <Legend /> : null;
  const stackId = stacked ? 'stack' : undefined;
  const color = (i: number) => COLORS[i % COLORS.length] as string;
  if (kind === 'line') {
    return (
      <LineChart {...common}>
        {axes}
        {legend}
        {data.series.map((s, i) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stroke={color(i)}
            dot={data.points.length <= 60}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    );
  }
  if (kind === 'area') {
    return (
      <AreaChart {...common}>
        {axes}
        {legend}
        {data.series.map((s, i) => (
          <Area
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stroke={color(i)}
            fill={color(i)}
            fillOpacity={0.3}
            stackId={stackId}
            isAnimationActive={false}
          />
        ))}
      </AreaChart>
    );
  }
  return (
    <BarChart {...common}>
      {axes}
      {legend}
      {data.series.map((s, i) => (
        <Bar
          key={s.key}
          dataKey={s.key}
          name={s.name}
          fill={color(i)}
          stackId={stackId}
          isAnimationActive={false}
          cursor={onPointClick ? 'pointer' : undefined}
          onClick={onPointClick ? (_entry, index) => onPointClick(index) : undefined}
        />
      ))}
    </BarChart>
  );
}

function PieOf({ data, onPointClick }: ChartProps) {
  const key = data.series[0]?.key ?? 's0';
  const slices = data.points.map((p, i) => ({ ...p, fill: COLORS[i % COLORS.length] }));
  return (
    <PieChart>
      <Tooltip isAnimationActive={false} />
      <Legend />
      <Pie
        data={slices}
        dataKey={key}
        nameKey="x"
        outerRadius="80%"
        isAnimationActive={false}
        cursor={onPointClick ? 'pointer' : undefined}
        onClick={onPointClick ? (_entry, index) => onPointClick(index) : undefined}
      />
    </PieChart>
  );
}

export function Chart(props: ChartProps) {
  return (
    <ResponsiveContainer width="100%" height={props.height}>
      {props.kind === 'pie' ? <PieOf {...props} /> : <Cartesian {...props} />}
    </ResponsiveContainer>
  );
}
