import '@xyflow/react/dist/style.css';
import './canvas.css';
import {
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  MiniMap,
  type NodeChange,
  ReactFlow,
  useNodesInitialized,
  useReactFlow,
} from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ContextMenu, type ContextMenuTarget } from './ContextMenu';
import { useEditor, useEditorStore } from './EditorContext';
import { InsertMenuProvider } from './edges/InsertMenu';
import { edgeTypes } from './edges/JourneyEdgeView';
import { GoalBadge } from './GoalBadge';
import { edgeRefFor } from './model/edgeRef';
import type { Selection } from './model/editorStore';
import type { JourneyEdge, JourneyFlow, JourneyNode } from './model/flow';
import { isStepNode, journeyToFlow } from './model/flow';
import { createLayoutCache, layoutFlow } from './model/layout';
import { reconcileEdges, reconcileNodes } from './model/reconcile';
import { KIND_LOOKS } from './nodes/kindLooks';
import { nodeTypes } from './nodes/nodeTypes';
import { useCanvasShortcuts } from './useCanvasShortcuts';

/** The smallest text on a node (canvas.css) and the smallest size it may be drawn at by Fit view. */
const SMALLEST_NODE_TEXT_PX = 12;
const LEGIBLE_TEXT_PX = 11;
/** Opening a journey never zooms out further than this: a larger journey scrolls instead (the minimap helps). */
export const MIN_FIT_ZOOM = LEGIBLE_TEXT_PX / SMALLEST_NODE_TEXT_PX;
/**
 * "Fit to screen" shows the whole journey when it can, but never below this zoom (node text at 6 px still
 * reads as words, and steps can be told apart): a journey too large for that keeps its start in view and
 * scrolls, rather than shrinking into unreadable dots.
 */
export const MIN_FIT_TO_SCREEN_ZOOM = 0.5;
const FIT_PADDING_PX = 24;
const MIN_ZOOM = 0.1;

export interface JourneyCanvasProps {
  openSearch(): void;
  /** Show the overview map (default true). */
  minimap?: boolean;
  /** Receives the view controls once the canvas is ready (for the toolbar and the problem list). */
  onView?(view: CanvasView): void;
}

export interface CanvasView {
  fitView(): void;
  relayout(): void;
  focusNode(id: string): void;
}

function withSelection(nodes: JourneyNode[], selection: Selection): JourneyNode[] {
  const chosen = new Set(selection?.kind === 'steps' ? selection.stepIds : []);
  const stage = selection?.kind === 'stage' ? `start-${selection.stageIndex}` : null;
  return nodes.map((n) => {
    const selected = chosen.has(n.id) || n.id === stage;
    return !!n.selected === selected ? n : { ...n, selected };
  });
}

function selectionOf(nodes: JourneyNode[]): Selection {
  const picked = nodes.filter((n) => n.selected);
  const steps = picked.filter(isStepNode);
  if (steps.length > 0) {
    const stageIndex = steps[0]?.data.stageIndex as number;
    return {
      kind: 'steps',
      stageIndex,
      stepIds: steps.filter((s) => s.data.stageIndex === stageIndex).map((s) => s.id),
    };
  }
  const start = picked.find((n) => n.type === 'start');
  if (start && start.type === 'start') return { kind: 'stage', stageIndex: start.data.stageIndex };
  return null;
}

const NODE_KEYS_TEXT =
  'Press Enter or Space to select it, arrow keys to move it, Shift+F10 for its actions (insert after, copy, delete).';
const NODE_KEYS = {
  'node.a11yDescription.default': NODE_KEYS_TEXT,
  'node.a11yDescription.keyboardDisabled': NODE_KEYS_TEXT,
};

const minimapColor = (node: { type?: string | undefined }) =>
  node.type && node.type in KIND_LOOKS ? KIND_LOOKS[node.type as keyof typeof KIND_LOOKS].color : '#dee2e6';

/** The React Flow host: lays the journey out, mirrors selection, and routes keys to editor actions. */
export function JourneyCanvas({ openSearch, onView, minimap = true }: JourneyCanvasProps) {
  const store = useEditorStore();
  const journey = useEditor((s) => s.journey);
  const selection = useEditor((s) => s.selection);
  const readOnly = useEditor((s) => s.readOnly);
  const [flow, setFlow] = useState<JourneyFlow | null>(null);
  const cache = useRef(createLayoutCache());
  const [layoutRound, setLayoutRound] = useState(0);
  const [menuAt, setMenuAt] = useState<ContextMenuTarget | null>(null);
  const rf = useReactFlow<JourneyNode, JourneyEdge>();
  const firstLayout = useRef(true);
  // Once, when the canvas first mounts (read by the benchmark).
  useEffect(() => void performance.mark('journey-canvas-mount'), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: layoutRound asks for a fresh layout
  useEffect(() => {
    const started = performance.now();
    const laid = layoutFlow(journeyToFlow(journey), cache.current);
    if (firstLayout.current) {
      performance.measure('journey-layout', { start: started, end: performance.now() });
      firstLayout.current = false;
    }
    const { selection: current } = store.getState();
    let added: JourneyNode | undefined;
    setFlow((previous) => {
      if (previous) {
        const known = new Set(previous.nodes.map((n) => n.id));
        // A new step, or the start of a new stage.
        added = laid.nodes.find((n) => (isStepNode(n) || n.type === 'start') && !known.has(n.id));
      }
      return {
        nodes: withSelection(reconcileNodes(previous?.nodes ?? [], laid.nodes), current),
        edges: reconcileEdges(previous?.edges ?? [], laid.edges),
      };
    });
    // The view follows a step or stage that was just added, so it and its "+" buttons are on screen.
    const frame = requestAnimationFrame(() => {
      if (!added) return;
      const lane = laid.nodes.find((n) => n.id === added?.parentId);
      const x = (lane?.position.x ?? 0) + added.position.x + (added.width ?? 0) / 2;
      const y = (lane?.position.y ?? 0) + added.position.y + (added.height ?? 0) / 2;
      void rf.setCenter(x, y, { zoom: Math.max(rf.getZoom(), 0.75), duration: 0 });
    });
    return () => cancelAnimationFrame(frame);
  }, [journey, layoutRound, store, rf]);

  useEffect(() => {
    setFlow((previous) => (previous ? { ...previous, nodes: withSelection(previous.nodes, selection) } : previous));
  }, [selection]);

  const onNodesChange = useCallback(
    (changes: NodeChange<JourneyNode>[]) => {
      setFlow((previous) => {
        if (!previous) return previous;
        const nodes = applyNodeChanges(changes, previous.nodes);
        if (changes.some((c) => c.type === 'select')) {
          const next = selectionOf(nodes);
          queueMicrotask(() => store.getState().select(next));
        }
        return { ...previous, nodes };
      });
    },
    [store],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const { journey: current, dispatch } = store.getState();
      const source = current.journeyStages.findIndex((s) => s.steps?.[connection.source] !== undefined);
      const targetStage = current.journeyStages.findIndex((s) => s.steps?.[connection.target] !== undefined);
      if (source < 0 || source !== targetStage) return;
      const ref = edgeRefFor(current, source, connection.source, (connection.sourceHandle ?? 'next') as 'next');
      if (!ref.slot) return;
      dispatch({
        type: 'connect',
        stageIndex: source,
        from: { stepId: connection.source, slot: ref.slot },
        target: connection.target,
      });
    },
    [store],
  );

  const section = useRef<HTMLElement>(null);
  const view = useMemo<CanvasView>(
    () => ({
      fitView: () => fitLegibly(rf, section.current, 200, true),
      relayout: () => {
        cache.current = createLayoutCache();
        setLayoutRound((n) => n + 1);
      },
      focusNode: (id: string) => {
        const node = rf.getInternalNode(id);
        if (!node) return;
        const { x, y } = node.internals.positionAbsolute;
        void rf.setCenter(x + (node.width ?? 0) / 2, y + (node.height ?? 0) / 2, { zoom: 1, duration: 250 });
        const stageIndex = (node.data as { stageIndex: number }).stageIndex;
        store
          .getState()
          .select(node.type === 'start' ? { kind: 'stage', stageIndex } : { kind: 'steps', stageIndex, stepIds: [id] });
        document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`)?.focus();
      },
    }),
    [rf, store],
  );

  useEffect(() => onView?.(view), [onView, view]);

  const actionContext = useMemo(
    () => ({ fitView: view.fitView, relayout: view.relayout, openSearch }),
    [view, openSearch],
  );
  const openMenuFor = useCallback(
    (nodeId: string, at: { x: number; y: number }) => {
      const node = rf.getNode(nodeId);
      if (!node || (!isStepNode(node) && node.type !== 'start')) return;
      const { selection: current } = store.getState();
      const inSelection = current?.kind === 'steps' && current.stepIds.includes(node.id);
      const stageIndex = node.data.stageIndex;
      if (node.type === 'start') store.getState().select({ kind: 'stage', stageIndex });
      else if (!inSelection) store.getState().select({ kind: 'steps', stageIndex, stepIds: [node.id] });
      setMenuAt({ ...at, nodeId });
    },
    [rf, store],
  );
  const openMenuFromKeys = useCallback(
    (element: HTMLElement) => {
      const rect = element.getBoundingClientRect();
      openMenuFor(element.dataset.id ?? '', { x: rect.left + 12, y: rect.bottom - 4 });
    },
    [openMenuFor],
  );
  useCanvasShortcuts(section, store, actionContext, openMenuFromKeys);

  if (!flow) return <div style={{ padding: 24 }}>Laying out the journey…</div>;
  return (
    <InsertMenuProvider>
      <section
        ref={section}
        className="jc-canvas"
        style={{ width: '100%', height: '100%' }}
        aria-label="Journey canvas"
      >
        <ReactFlow<JourneyNode, JourneyEdge>
          nodes={flow.nodes}
          edges={flow.edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onConnect={onConnect}
          onNodeContextMenu={(event, node) => {
            event.preventDefault();
            // A keyboard-made contextmenu event has no pointer position: open under the node instead.
            if (event.clientX === 0 && event.clientY === 0) openMenuFromKeys(event.currentTarget as HTMLElement);
            else openMenuFor(node.id, { x: event.clientX, y: event.clientY });
          }}
          nodesConnectable={!readOnly}
          nodesDraggable
          deleteKeyCode={null}
          multiSelectionKeyCode="Shift"
          minZoom={MIN_ZOOM}
          maxZoom={1.6}
          proOptions={{ hideAttribution: true }}
          ariaLabelConfig={NODE_KEYS}
        >
          <Background gap={20} color="#e4e7ef" />
          {minimap && (
            <MiniMap
              pannable
              zoomable
              nodeColor={minimapColor}
              ariaLabel="Journey overview map"
              style={{ width: 168, height: 112 }}
            />
          )}
          <Controls showInteractive={false} />
          <GoalBadge />
          <RenderMark onFirstRender={() => fitLegibly(rf, section.current, 0)} />
        </ReactFlow>
        <ContextMenu at={menuAt} context={actionContext} onClose={() => setMenuAt(null)} />
      </section>
    </InsertMenuProvider>
  );
}

/** Fits the view once the first nodes are measured, and marks when (read by the canvas benchmark). */
function RenderMark({ onFirstRender }: { onFirstRender(): void }) {
  const initialized = useNodesInitialized();
  const done = useRef(false);
  useEffect(() => {
    if (!initialized || done.current) return;
    done.current = true;
    onFirstRender();
    requestAnimationFrame(() => performance.mark('journey-rendered'));
  }, [initialized, onFirstRender]);
  return null;
}

/** Where on the canvas nodes can be seen: its box, relative to the canvas, less what floats over it. */
export interface VisibleArea {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/**
 * The viewport that shows the whole journey inside `area`, but never smaller than `minZoom` (by default
 * MIN_FIT_ZOOM: text stays legible) nor larger than 1. Along an axis the journey does not fit, it shows the
 * start (top left) and scrolls.
 */
export function legibleViewport(
  bounds: { x: number; y: number; width: number; height: number },
  area: VisibleArea,
  padding = FIT_PADDING_PX,
  minZoom = MIN_FIT_ZOOM,
) {
  const fits = Math.min((area.width - 2 * padding) / bounds.width, (area.height - 2 * padding) / bounds.height);
  const zoom = Math.min(1, Math.max(minZoom, Number.isFinite(fits) ? fits : 1));
  const axis = (start: number, size: number, room: number) =>
    size * zoom <= room - 2 * padding ? (room - size * zoom) / 2 - start * zoom : padding - start * zoom;
  return {
    x: (area.x ?? 0) + axis(bounds.x, bounds.width, area.width),
    y: (area.y ?? 0) + axis(bounds.y, bounds.height, area.height),
    zoom,
  };
}

/** The panels that float over the canvas in focus mode (JourneyEditorLayout) and how far they reach in. */
const FLOATING_PANELS = '[data-testid="palette-panel"], [data-testid="settings-panel"]';
const PANEL_GAP_PX = 8;

/** The part of the canvas no floating panel covers: a panel on the left pushes the area's left edge right, and so on. */
function visibleArea(host: HTMLElement): VisibleArea {
  const box = host.getBoundingClientRect();
  let left = box.left;
  let right = box.right;
  for (const panel of host.parentElement?.querySelectorAll<HTMLElement>(FLOATING_PANELS) ?? []) {
    if (getComputedStyle(panel).position !== 'absolute') continue;
    const covered = panel.getBoundingClientRect();
    if (covered.right <= box.left || covered.left >= box.right) continue;
    if (covered.left + covered.width / 2 < box.left + box.width / 2)
      left = Math.max(left, covered.right + PANEL_GAP_PX);
    else right = Math.min(right, covered.left - PANEL_GAP_PX);
  }
  // A window too narrow for both panels and the journey: fit to the whole canvas rather than to nothing.
  if (right - left < box.width / 4) return { width: box.width, height: box.height };
  return { x: left - box.left, y: 0, width: right - left, height: box.height };
}

/**
 * Fits the journey into the visible part of the canvas. `everything`: the user asked to see every node
 * (Fit to screen), so the zoom may go down to MIN_FIT_TO_SCREEN_ZOOM; otherwise (opening) text stays at
 * full legibility.
 */
function fitLegibly(
  rf: ReturnType<typeof useReactFlow<JourneyNode, JourneyEdge>>,
  host: HTMLElement | null,
  duration: number,
  everything = false,
) {
  const nodes = rf.getNodes();
  if (!host || nodes.length === 0) return;
  const minZoom = everything ? MIN_FIT_TO_SCREEN_ZOOM : MIN_FIT_ZOOM;
  void rf.setViewport(legibleViewport(rf.getNodesBounds(nodes), visibleArea(host), FIT_PADDING_PX, minZoom), {
    duration,
  });
}
