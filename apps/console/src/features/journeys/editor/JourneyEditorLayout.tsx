import { Group, Paper, ScrollArea } from '@mantine/core';
import { useCallback, useRef, useState } from 'react';
import { useEditorStore, useEnvironment } from './EditorContext';
import { EditorToolbar } from './EditorToolbar';
import { type CanvasView, JourneyCanvas } from './JourneyCanvas';
import { JourneyFiguresBar } from './JourneyFiguresBar';
import { NodeSearch } from './NodeSearch';
import { Palette } from './Palette';
import { ProblemsPanel } from './ProblemsPanel';
import { SidePanel } from './panels/SidePanel';

export interface JourneyEditorLayoutProps {
  onView(view: CanvasView): void;
}

/** Palette and problems on the left, the canvas in the middle, the selected item's settings on the right. */
export function JourneyEditorLayout({ onView }: JourneyEditorLayoutProps) {
  const [searching, setSearching] = useState(false);
  const viewRef = useRef<CanvasView | null>(null);
  const { focusNode } = useEnvironment();
  const store = useEditorStore();
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
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '220px minmax(0, 1fr) 340px', gap: 10, flex: 1, minHeight: 0 }}>
      <Paper withBorder radius="md" style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Palette />
        <ScrollArea style={{ flex: 1, borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <ProblemsPanel />
        </ScrollArea>
      </Paper>
      <Paper
        withBorder
        radius="md"
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0, overflow: 'hidden' }}
      >
        <Group
          p={6}
          justify="space-between"
          wrap="nowrap"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <div style={{ flex: 'none' }}>
            <EditorToolbar context={context} />
          </div>
          <JourneyFiguresBar />
        </Group>
        <div style={{ flex: 1, minHeight: 0 }}>
          <JourneyCanvas openSearch={openSearch} onView={handleView} />
        </div>
      </Paper>
      <Paper withBorder radius="md" style={{ minHeight: 0 }}>
        <SidePanel />
      </Paper>
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
