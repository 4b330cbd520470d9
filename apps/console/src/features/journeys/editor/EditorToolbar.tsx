import { ActionIcon, Group, Tooltip } from '@mantine/core';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconClipboard,
  IconCopy,
  IconLayoutDistributeHorizontal,
  IconMaximize,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useEditor, useEditorStore } from './EditorContext';
import type { ActionContext, EditorAction } from './model/actions';
import { editorActions, keyLabel } from './model/actions';

const ICONS: Partial<Record<EditorAction['id'], ReactNode>> = {
  undo: <IconArrowBackUp size={18} />,
  redo: <IconArrowForwardUp size={18} />,
  copy: <IconCopy size={18} />,
  paste: <IconClipboard size={18} />,
  delete: <IconTrash size={18} />,
  search: <IconSearch size={18} />,
  fit: <IconMaximize size={18} />,
  relayout: <IconLayoutDistributeHorizontal size={18} />,
};

/** The editor actions with an icon, as buttons; the same objects the keyboard runs. */
export function EditorToolbar({ context }: { context: Omit<ActionContext, 'store'> }) {
  const store = useEditorStore();
  // Re-render when anything the enabled() checks read changes.
  useEditor(
    (s) => `${s.past.length}|${s.future.length}|${s.clipboard ? 1 : 0}|${JSON.stringify(s.selection)}|${s.readOnly}`,
  );
  const state = store.getState();
  return (
    <Group gap={4} role="toolbar" aria-label="Editor actions">
      {editorActions
        .filter((a) => ICONS[a.id] && !(a.edits && state.readOnly))
        .map((action) => {
          const keys = action.keys[0] ? keyLabel(action.keys[0]) : '';
          return (
            <Tooltip key={action.id} label={keys ? `${action.label} (${keys})` : action.label} withArrow>
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={action.label}
                aria-keyshortcuts={action.keys.map(keyLabel).join(' ')}
                disabled={!action.enabled(state)}
                onClick={() => action.run({ ...context, store })}
              >
                {ICONS[action.id]}
              </ActionIcon>
            </Tooltip>
          );
        })}
    </Group>
  );
}
