import { ScrollArea, Tabs } from '@mantine/core';
import type { Journey } from '@svc/journey';
import { IconChartBar, IconPlayerTrackNext, IconRoute, IconSend, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useCallback, useMemo } from 'react';
import { CenteredLoader } from '../../../components/CenteredLoader';
import type { CustomerFilter, StatisticsWindow } from '../api';
import { FiguresProvider } from '../editor/FiguresContext';
import { canvasFigures } from '../editor/model/figures';
import { DeliveriesView } from './DeliveriesView';
import { statisticsQuery } from './engineQueries';
import { ProfilesView, statusOf } from './ProfilesView';
import { SimulationView } from './SimulationView';
import { StatisticsView } from './StatisticsView';
import { useUrlState } from './useUrlState';

export interface JourneyTabsProps {
  journeyId: string;
  /** The journey as stored (launched journeys do not change structure, so the figures fit it). */
  journey: Journey;
  canEdit: boolean;
  /** Whether `canEdit` is the caller's permission or still a guess (the folder's permissions not answered yet). */
  permissionsKnown: boolean;
  segments: Array<{ id: string; name: string }>;
  activations: Array<{ id: string; name: string }>;
  keyColumn: string | null;
  /** The canvas editor. */
  children: ReactNode;
  /** Focus mode: only the canvas, without the tab bar. */
  canvasOnly?: boolean;
}

type Tab = 'canvas' | 'statistics' | 'profiles' | 'deliveries' | 'simulation';

const panel = { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } as const;

/**
 * The journey page below its header: the canvas (with the engine's figures once launched), and the
 * engine's views: statistics, profiles, deliveries, simulation. Which tab, window and filters are shown
 * is in the URL.
 */
export function JourneyTabs(props: JourneyTabsProps) {
  const { journeyId, journey, canEdit, permissionsKnown, segments, activations, keyColumn, children } = props;
  const url = useUrlState();
  const launched = journey.state === 'launched';
  const from = url.get('from');
  const to = url.get('to');
  const window = useMemo<StatisticsWindow>(() => ({ ...(from ? { from } : {}), ...(to ? { to } : {}) }), [from, to]);
  const statistics = useQuery({ ...statisticsQuery(journeyId, window), enabled: launched });
  const segmentName = useCallback((id: string) => segments.find((s) => s.id === id)?.name, [segments]);
  const activationName = useCallback((id: string) => activations.find((a) => a.id === id)?.name, [activations]);
  const figures = useMemo(
    () => (launched && statistics.data ? canvasFigures(journey, statistics.data, segmentName) : null),
    [launched, statistics.data, journey, segmentName],
  );

  const tabs: Tab[] = [
    'canvas',
    ...(launched ? (['statistics'] as const) : []),
    ...(launched && canEdit ? (['profiles'] as const) : []),
    ...(launched ? (['deliveries'] as const) : []),
    ...(canEdit ? (['simulation'] as const) : []),
  ];
  const requested = url.get('tab') as Tab | undefined;
  const tab: Tab = requested && tabs.includes(requested) ? requested : 'canvas';
  const canvas = <FiguresProvider figures={figures}>{children}</FiguresProvider>;
  if (props.canvasOnly) return canvas;
  // A link to a tab that needs the permission waits for it, rather than laying out and drawing the canvas in the
  // meantime (the largest task of the page) only to replace it.
  if (!permissionsKnown && (requested === 'simulation' || (requested === 'profiles' && launched))) {
    return <CenteredLoader label="Loading the journey" />;
  }
  if (tabs.length === 1) return canvas;

  const filter: CustomerFilter = {
    ...(url.get('stage') ? { stage: url.get('stage') } : {}),
    ...(url.get('step') ? { step: url.get('step') } : {}),
    status: statusOf(url.get('status')),
    page: Math.max(1, Number(url.get('page') ?? 1) || 1),
    perPage: [20, 50, 100].includes(Number(url.get('perPage'))) ? Number(url.get('perPage')) : 50,
  };
  const scrolling = (content: ReactNode) => (
    <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
      <div style={{ padding: '12px 2px 24px' }}>{content}</div>
    </ScrollArea>
  );
  return (
    <Tabs
      value={tab}
      onChange={(value) => url.set({ tab: value === 'canvas' ? null : value })}
      keepMounted={false}
      style={panel}
    >
      <Tabs.List>
        <Tabs.Tab value="canvas" leftSection={<IconRoute size={16} />}>
          Canvas
        </Tabs.Tab>
        {tabs.includes('statistics') && (
          <Tabs.Tab value="statistics" leftSection={<IconChartBar size={16} />}>
            Statistics
          </Tabs.Tab>
        )}
        {tabs.includes('profiles') && (
          <Tabs.Tab value="profiles" leftSection={<IconUsers size={16} />}>
            Profiles
          </Tabs.Tab>
        )}
        {tabs.includes('deliveries') && (
          <Tabs.Tab value="deliveries" leftSection={<IconSend size={16} />}>
            Deliveries
          </Tabs.Tab>
        )}
        {tabs.includes('simulation') && (
          <Tabs.Tab value="simulation" leftSection={<IconPlayerTrackNext size={16} />}>
            Simulation
          </Tabs.Tab>
        )}
      </Tabs.List>
      <Tabs.Panel value="canvas" pt="sm" style={panel}>
        {canvas}
      </Tabs.Panel>
      <Tabs.Panel value="statistics" style={panel}>
        {scrolling(
          <StatisticsView
            journeyId={journeyId}
            journey={journey}
            segmentName={segmentName}
            window={window}
            onWindow={(next) => url.set({ from: next.from, to: next.to })}
          />,
        )}
      </Tabs.Panel>
      <Tabs.Panel value="profiles" style={panel}>
        {scrolling(
          <ProfilesView
            journeyId={journeyId}
            journey={journey}
            filter={filter}
            onFilter={(patch) => url.set({ ...patch })}
          />,
        )}
      </Tabs.Panel>
      <Tabs.Panel value="deliveries" style={panel}>
        {scrolling(<DeliveriesView journeyId={journeyId} journey={journey} canDownload={canEdit} />)}
      </Tabs.Panel>
      <Tabs.Panel value="simulation" style={panel}>
        {scrolling(
          <SimulationView
            journeyId={journeyId}
            journey={journey}
            keyColumn={keyColumn}
            segmentName={segmentName}
            activationName={activationName}
          />,
        )}
      </Tabs.Panel>
    </Tabs>
  );
}
