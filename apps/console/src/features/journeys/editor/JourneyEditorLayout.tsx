import { ActionIcon, Group, Paper, ScrollArea, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarRightCollapse, IconMap } from '@tabler/icons-react';
import { type CSSProperties, type ReactNode, useCallback, useRef, useState } from 'react';
import { useEditorStore, useEnvironment } from './EditorContext';
import { EditorToolbar } from './EditorToolbar';
import { type CanvasView, JourneyCanvas } from './JourneyCanvas';
import { JourneyFiguresBar } from './JourneyFiguresBar';
import { NodeSearch } from './NodeSearch';
import { Palette } from './Palette';
import { ProblemsPanel } from './ProblemsPanel';
import { SidePanel } from './panels/SidePanel';
import { useWorkspace } from './workspace';

export interface JourneyEditorLayoutProps {
  onView(view: CanvasView): void;
}

const border = '1px solid var(--mantine-color-gray-3)';

function PanelToggle(props: { label: string; pressed: boolean; onClick(): void; children: ReactNode }) {
  return (
    <Tooltip label={props.label} withArrow>
      <ActionIcon
        variant={props.pressed ? 'light' : 'default'}
        size="lg"
        aria-label={props.label}
        aria-pressed={props.pressed}
        onClick={props.onClick}
      >
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Palette and problems on the left, the canvas in the middle, the selected item's settings on the right;
 * each side panel can be closed. In focus mode the canvas fills the page and the open panels float over
 * its edges.
 */
export function JourneyEditorLayout({ onView }: JourneyEditorLayoutProps) {
  const [searching, setSearching] = useState(false);
  const viewRef = useRef<CanvasView | null>(null);
  const { focusNode } = useEnvironment();
  const store = useEditorStore();
  const { focus, palette, panel, minimap, toggle } = useWorkspace();
  const handleView = useCallback(
    (view: CanvasView) => {
      viewRef.current = view;
      onView(view);
    },
    [onView],
  );
  const openSearch = useCallback(() => setSearching(true), []);
  const context = {
    fitView: () => viewRef.current?.fitView(),
    relayout: () => viewRef.current?.relayout(),
    openSearch,
  };
  const floating = (side: 'left' | 'right', width: number): CSSProperties => ({
    position: 'absolute',
    top: 8,
    bottom: 8,
    [side]: 8,
    width,
    zIndex: 6,
    display: 'flex',
    flexDirection: 'column',
    minHeight: 0,
    boxShadow: '0 4px 18px rgba(20, 30, 60, 0.16)',
  });
  const paletteBox = palette && (
    <Paper
      withBorder
      radius="md"
      style={focus ? floating('left', 220) : { display: 'flex', flexDirection: 'column', minHeight: 0 }}
      data-testid="palette-panel"
    >
      <Palette />
      <ScrollArea style={{ flex: 1, borderTop: border }}>
        <ProblemsPanel />
      </ScrollArea>
    </Paper>
  );
  const panelBox = panel && (
    <Paper
      withBorder
      radius="md"
      style={focus ? { ...floating('right', 340), overflow: 'hidden' } : { minHeight: 0 }}
      data-testid="settings-panel"
    >
      <SidePanel />
    </Paper>
  );
  const columns = focus
    ? 'minmax(0, 1fr)'
    : [palette ? '220px' : null, 'minmax(0, 1fr)', panel ? '340px' : null].filter(Boolean).join(' ');
  return (
    <div style={{ display: 'grid', gridTemplateColumns: columns, gap: 10, flex: 1, minHeight: 0 }}>
      {!focus && paletteBox}
      <Paper
        withBorder
        radius="md"
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'hidden' }}
      >
        <Group p={6} justify="space-between" wrap="nowrap" style={{ borderBottom: border }}>
          <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
            <PanelToggle label="Step palette and problems" pressed={palette} onClick={() => toggle('palette')}>
              <IconLayoutSidebarLeftCollapse size={18} />
            </PanelToggle>
            <EditorToolbar context={context} />
            <PanelToggle label="Overview map" pressed={minimap} onClick={() => toggle('minimap')}>
              <IconMap size={18} />
            </PanelToggle>
            <PanelToggle label="Settings panel" pressed={panel} onClick={() => toggle('panel')}>
              <IconLayoutSidebarRightCollapse size={18} />
            </PanelToggle>
          </Group>
          <JourneyFiguresBar />
        </Group>
        <div style={{ flex: 1, minHeight: 0, position: 'relative' }}>
          <JourneyCanvas openSearch={openSearch} onView={handleView} minimap={minimap} />
          {focus && paletteBox}
          {focus && panelBox}
        </div>
      </Paper>
      {!focus && panelBox}
      <NodeSearch
        opened={searching}
        onClose={() => setSearching(false)}
        onPick={(id) => {
          if (id.startsWith('start-')) store.getState().select({ kind: 'stage', stageIndex: Number(id.slice(6)) });
          focusNode(id);
        }}
      />
    </div>
  );
}
