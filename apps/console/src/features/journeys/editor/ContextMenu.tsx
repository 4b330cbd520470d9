import { Menu } from '@mantine/core';
import { useReactFlow } from '@xyflow/react';
import { useEditorStore } from './EditorContext';
import { useInsertMenu } from './edges/InsertMenu';
import type { ActionContext, EditorAction } from './model/actions';
import { editorActions, keyLabel } from './model/actions';
import type { JourneyEdge, JourneyEdgeData, JourneyNode } from './model/flow';

const IN_MENU: ReadonlyArray<EditorAction['id']> = ['copy', 'paste', 'duplicate', 'delete', 'undo', 'redo'];

/** Where the menu opens and for which node (a step or a stage card). */
export interface ContextMenuTarget {
  x: number;
  y: number;
  nodeId: string;
}

export interface ContextMenuProps {
  at: ContextMenuTarget | null;
  context: Omit<ActionContext, 'store'>;
  onClose(): void;
}

/** "Insert after…" (or one item per path): the keyboard's way to the "+" of the node's outgoing edges. */
function insertLabel(data: JourneyEdgeData, exits: number): string {
  if (data.stepId === null) return 'Insert at the stage start…';
  return exits > 1 && data.label ? `Insert on path "${data.label}"…` : 'Insert after…';
}

/** Right-click, Shift+F10 or the ContextMenu key on a node: the same editor actions as the toolbar and keyboard. */
export function ContextMenu({ at, context, onClose }: ContextMenuProps) {
  const store = useEditorStore();
  const rf = useReactFlow<JourneyNode, JourneyEdge>();
  const insertMenu = useInsertMenu();
  if (!at) return null;
  const state = store.getState();
  const nodeElement = () =>
    document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(at.nodeId)}"]`);
  const actions = editorActions.filter((a) => IN_MENU.includes(a.id) && !(a.edits && state.readOnly));
  const outgoing = state.readOnly
    ? []
    : rf.getEdges().flatMap((e) => (e.source === at.nodeId && e.data ? [e.data] : []));
  const close = () => {
    onClose();
    nodeElement()?.focus();
  };
  return (
    <Menu opened onChange={(opened) => !opened && close()} position="bottom-start" shadow="md" width={220}>
      <Menu.Target>
        <div style={{ position: 'fixed', left: at.x, top: at.y, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown aria-label="Step actions">
        {outgoing.map((data) => {
          const label = insertLabel(data, outgoing.length);
          return (
            <Menu.Item
              key={`${data.stepId}-${data.handle}`}
              onClick={() => {
                const element = nodeElement();
                if (element) insertMenu.open(data, element, label.replace('…', ''));
              }}
            >
              {label}
            </Menu.Item>
          );
        })}
        {outgoing.length > 0 && <Menu.Divider />}
        {actions.map((action) => (
          <Menu.Item
            key={action.id}
            disabled={!action.enabled(state)}
            rightSection={
              action.keys[0] ? <span style={{ fontSize: 11, opacity: 0.6 }}>{keyLabel(action.keys[0])}</span> : null
            }
            onClick={() => action.run({ ...context, store })}
          >
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
