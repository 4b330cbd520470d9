import { Menu } from '@mantine/core';
import { useEditorStore } from './EditorContext';
import type { ActionContext, EditorAction } from './model/actions';
import { editorActions, keyLabel } from './model/actions';

const IN_MENU: ReadonlyArray<EditorAction['id']> = ['copy', 'paste', 'duplicate', 'delete', 'undo', 'redo'];

export interface ContextMenuProps {
  at: { x: number; y: number } | null;
  context: Omit<ActionContext, 'store'>;
  onClose(): void;
}

/** Right-click on a step: the same editor actions as the toolbar and the keyboard. */
export function ContextMenu({ at, context, onClose }: ContextMenuProps) {
  const store = useEditorStore();
  if (!at) return null;
  const state = store.getState();
  const actions = editorActions.filter((a) => IN_MENU.includes(a.id) && !(a.edits && state.readOnly));
  return (
    <Menu opened onChange={(opened) => !opened && onClose()} position="bottom-start" shadow="md" width={200}>
      <Menu.Target>
        <div style={{ position: 'fixed', left: at.x, top: at.y, width: 1, height: 1, pointerEvents: 'none' }} />
      </Menu.Target>
      <Menu.Dropdown aria-label="Step actions">
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
