import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { JourneyStatistics } from '@svc/contracts';
import type { Journey } from '@svc/journey';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import { IsoDateField } from '../../../components/IsoDateField';
import { QueryError } from '../../../components/QueryError';
import { Timestamp } from '../../../components/Timestamp';
import type { StatisticsWindow } from '../api';
import { engineStageId, exitCriterionName, formatWindow, type SegmentName } from '../editor/model/figures';
import { AbTestResults } from './AbTestResults';
import { statisticsQuery } from './engineQueries';
import { journeyIndex } from './journeyIndex';
import { StageFlowChart } from './StageFlowChart';
import { StageTable } from './StageTable';
import { utcDay } from './statisticsFormat';

export interface StatisticsViewProps {
  journeyId: string;
  journey: Journey;
  segmentName: SegmentName;
  window: StatisticsWindow;
  onWindow(window: StatisticsWindow): void;
}

/** The journey's figures over a window: totals, the stage-to-stage flow, per-stage figures, A/B results. */
export function StatisticsView({ journeyId, journey, segmentName, window, onWindow }: StatisticsViewProps) {
  const statistics = useQuery(statisticsQuery(journeyId, window));
  if (statistics.isPending) return <CenteredLoader label="Loading the statistics" />;
  if (statistics.error) {
    return (
      <Stack>
        <WindowPicker window={window} shown={null} onWindow={onWindow} />
        <QueryError
          title="The statistics could not be loaded"
          error={statistics.error}
          onRetry={() => void statistics.refetch()}
        />
      </Stack>
    );
  }
  const data = statistics.data;
  const index = journeyIndex(journey);
  const stages = data.stages.map((figures) => {
    const at = journey.journeyStages.findIndex((s, i) => engineStageId(s, i) === figures.stageId);
    const stage = journey.journeyStages[at];
    return {
      label: index.stageLabel(figures.stageId),
      figures: {
        ...figures,
        exits: figures.exits.map((e) => ({
          ...e,
          name: stage ? exitCriterionName(stage, e.criterionIndex, segmentName) : e.name,
        })),
      },
    };
  });
  const goalSegment = journey.goal?.segmentId ?? null;
  const goalLabel = journey.goal?.name || (goalSegment ? (segmentName(goalSegment) ?? 'Goal') : 'Goal');
  const exited = data.left.exit_segment + data.left.exit_after;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <WindowPicker window={window} shown={data.window} onWindow={onWindow} />
        <Group gap="sm" align="center">
          <LastRun run={data.lastRun} />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={statistics.isFetching}
            onClick={() => void statistics.refetch()}
          >
            Refresh
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {formatWindow(data.window)} (UTC). Counts are distinct profiles in the window; “now” figures are as of the last
        run.
      </Text>
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Figure label="Entered the journey" value={data.entered} detail={`${data.entries} entries with re-entries`} />
        <Figure label="In the journey now" value={data.current} />
        <Figure
          label="Reached the goal"
          value={data.goalReached}
          detail={goalSegment ? `Goal: ${goalLabel}` : 'No goal is set'}
        />
        <Figure label="Left the journey" value={leftTotal(data)} detail={leftDetail(data)} />
      </SimpleGrid>
      <Section title="Stage to stage">
        <StageFlowChart
          stages={stages}
          goal={goalSegment ? { label: goalLabel, reached: data.goalReached } : null}
          exited={exited}
        />
      </Section>
      <Section title="Stages">
        <StageTable stages={stages} />
      </Section>
      <Section title="A/B tests">
        <AbTestResults tests={data.abTests} stageLabel={index.stageLabel} hasGoal={goalSegment !== null} />
      </Section>
    </Stack>
  );
}

const leftTotal = (data: JourneyStatistics) => Object.values(data.left).reduce((sum, n) => sum + n, 0);

function leftDetail(data: JourneyStatistics): string {
  const parts = [
    [data.left.goal, 'at the goal'],
    [data.left.exit_segment + data.left.exit_after, 'by exit criteria'],
    [data.left.milestone + data.left.completed, 'at the end'],
  ] as const;
  return parts.map(([n, what]) => `${n} ${what}`).join(' · ');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Figure({ label, value, detail }: { label: string; value: number; detail?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={label}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value.toLocaleString('en')}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed">
          {detail}
        </Text>
      )}
    </Paper>
  );
}

function LastRun({ run }: { run: JourneyStatistics['lastRun'] }) {
  if (!run) {
    return (
      <Text size="sm" c="dimmed">
        Not run yet
      </Text>
    );
  }
  return (
    <Group gap={6} align="center">
      <Text size="sm" c="dimmed">
        Last run {run.error ? 'failed' : ''}
      </Text>
      <Timestamp value={run.at} />
    </Group>
  );
}

export interface WindowPickerProps {
  window: StatisticsWindow;
  /** The window the server used (fills the inputs when the URL has none). */
  shown: { from: string; to: string } | null;
  onWindow(window: StatisticsWindow): void;
}

/** From and to, as UTC days; "Past 30 days" goes back to the default window. */
function WindowPicker({ window, shown, onWindow }: WindowPickerProps) {
  const from = window.from ?? (shown ? utcDay(shown.from) : '');
  const to = window.to ?? (shown ? utcDay(shown.to) : '');
  const custom = window.from !== undefined || window.to !== undefined;
  return (
    <Group gap="sm" align="flex-end">
      <IsoDateField
        label="From (UTC)"
        value={from}
        check={(day) => (to && day > to ? `From is after To (${to}).` : null)}
        onCommit={(day) => day && onWindow({ from: day, to })}
      />
      <IsoDateField
        label="To (UTC)"
        value={to}
        check={(day) => (from && day < from ? `To is before From (${from}).` : null)}
        onCommit={(day) => day && onWindow({ from, to: day })}
      />
      <Button variant="subtle" disabled={!custom} onClick={() => onWindow({})}>
        Past 30 days
      </Button>
    </Group>
  );
}
