import { Anchor, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { overviewFigures } from '@svc/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { CenteredLoader } from '../../components/CenteredLoader';
import type { ChartData } from '../../components/charts/chartData';
import { LazyChart } from '../../components/charts/LazyChart';
import { QueryError } from '../../components/QueryError';
import { api } from '../../lib/api';

/**
 * The account's live figures as charts, each linking to its page: rows ingested per day (14 days), jobs today by
 * state, launched journeys, parent segment sizes and the biggest tables. One request (`/console-api/overview`,
 * kept figures only), refreshed every 30 s while the page is open.
 */

const overviewQueryOptions = () =>
  queryOptions({
    queryKey: ['overview', 'figures'] as const,
    queryFn: ({ signal }) => api.get('/console-api/overview', overviewFigures, { signal }),
    refetchInterval: 30_000,
  });

const HEIGHT = 220;
const TOP = 10;

/** Points with one or two named series, from labelled values. */
function dataOf(items: readonly { label: string; values: number[] }[], names: string[]): ChartData {
  return {
    points: items.map((item) => {
      const point: Record<string, string | number> = { x: item.label };
      item.values.forEach((v, i) => {
        point[`s${i}`] = v;
      });
      return point;
    }),
    series: names.map((name, i) => ({ key: `s${i}`, name })),
    groups: items.length,
    note: null,
  };
}

function FigureCard({ title, to, children }: { title: string; to: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={2} size="h5" mb="xs">
        <Anchor component={Link} to={to} inherit>
          {title}
        </Anchor>
      </Title>
      {children}
    </Paper>
  );
}

const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0).toLocaleString();

export function LiveFigures() {
  const figures = useQuery(overviewQueryOptions());
  const navigate = useNavigate();
  if (figures.isPending) return <CenteredLoader label="Loading the account’s figures" height={120} />;
  if (figures.isError) {
    return (
      <QueryError title="The figures could not be loaded" error={figures.error} onRetry={() => figures.refetch()} />
    );
  }
  const f = figures.data;
  const journeys = f.journeys.slice(0, TOP);
  const segments = f.parentSegments.slice(0, TOP);
  const tableKey = (t: (typeof f.biggestTables)[number]) => `${t.database}.${t.table}`;
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="lg" mb="lg">
      <FigureCard title="Rows ingested per day" to="/data/databases">
        <Text size="sm" c="dimmed">
          {total(f.ingestedByDay.map((d) => d.records))} rows in the last 14 days
        </Text>
        <LazyChart
          label={`Rows ingested per day, last 14 days: ${f.ingestedByDay.map((d) => d.records).join(', ')}`}
          kind="bar"
          height={HEIGHT}
          data={dataOf(
            f.ingestedByDay.map((d) => ({ label: d.day.slice(5), values: [d.records] })),
            ['rows'],
          )}
        />
      </FigureCard>
      <FigureCard title="Jobs today" to="/data/jobs">
        <Text size="sm" c="dimmed">
          {total(f.jobsToday.map((j) => j.jobs))} jobs since midnight UTC
        </Text>
        <LazyChart
          label={`Jobs today by state: ${f.jobsToday.map((j) => `${j.status} ${j.jobs}`).join(', ')}`}
          kind="pie"
          height={HEIGHT}
          data={dataOf(
            f.jobsToday.map((j) => ({ label: j.status, values: [j.jobs] })),
            ['jobs'],
          )}
          onPointClick={(i) => navigate(`/data/jobs?status=${f.jobsToday[i]?.status ?? ''}`)}
        />
      </FigureCard>
      <FigureCard title="Launched journeys" to="/journeys">
        <LazyChart
          label={`Launched journeys, entered and reached the goal: ${journeys
            .map((j) => `${j.name} ${j.entered}/${j.goalReached}`)
            .join(', ')}`}
          kind="bar"
          height={HEIGHT}
          data={dataOf(
            journeys.map((j) => ({ label: j.name, values: [j.entered, j.goalReached] })),
            ['Entered', 'Reached the goal'],
          )}
          onPointClick={(i) => navigate(`/journeys/${journeys[i]?.id ?? ''}`)}
        />
      </FigureCard>
      <FigureCard title="Parent segment sizes" to="/parent-segments">
        <LazyChart
          label={`Parent segments by profiles: ${segments.map((s) => `${s.name} ${s.profiles}`).join(', ')}`}
          kind="bar"
          height={HEIGHT}
          data={dataOf(
            segments.map((s) => ({ label: s.name, values: [s.profiles] })),
            ['profiles'],
          )}
          onPointClick={(i) => navigate(`/parent-segments/${segments[i]?.id ?? ''}`)}
        />
      </FigureCard>
      <FigureCard title="Biggest tables" to="/data/databases">
        <LazyChart
          label={`Biggest tables by rows: ${f.biggestTables.map((t) => `${tableKey(t)} ${t.records}`).join(', ')}`}
          kind="bar"
          height={HEIGHT}
          data={dataOf(
            f.biggestTables.map((t) => ({ label: tableKey(t), values: [t.records] })),
            ['rows'],
          )}
          onPointClick={(i) => {
            const t = f.biggestTables[i];
            if (t) navigate(`/data/databases/${encodeURIComponent(t.database)}/tables/${encodeURIComponent(t.table)}`);
          }}
        />
      </FigureCard>
    </SimpleGrid>
  );
}
