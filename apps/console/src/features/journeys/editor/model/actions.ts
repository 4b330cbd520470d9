import type { EditorActions, EditorState, EditorStore } from './editorStore';

/** What an action may reach besides the store: the view. */
export interface ActionContext {
  store: EditorStore;
  fitView(): void;
  relayout(): void;
  openSearch(): void;
}

/**
 * Editor actions as data: the toolbar, the keyboard, the context menu and tests all read this one
 * list. `keys` use "mod" for Ctrl (Cmd on a Mac).
 */
export interface EditorAction {
  id: 'undo' | 'redo' | 'copy' | 'paste' | 'duplicate' | 'delete' | 'search' | 'fit' | 'relayout';
  label: string;
  keys: string[];
  /** Changes the journey (hidden or disabled when read-only). */
  edits: boolean;
  enabled(state: EditorState & EditorActions): boolean;
  run(context: ActionContext): void;
}

const hasSteps = (s: EditorState) => s.selection?.kind === 'steps' && s.selection.stepIds.length > 0;

export const editorActions: EditorAction[] = [
  {
    id: 'undo',
    label: 'Undo',
    keys: ['mod+z'],
    edits: true,
    enabled: (s) => s.past.length > 0,
    run: ({ store }) => store.getState().undo(),
  },
  {
    id: 'redo',
    label: 'Redo',
    keys: ['mod+shift+z', 'mod+y'],
    edits: true,
    enabled: (s) => s.future.length > 0,
    run: ({ store }) => store.getState().redo(),
  },
  {
    id: 'copy',
    label: 'Copy',
    keys: ['mod+c'],
    edits: false,
    enabled: hasSteps,
    run: ({ store }) => void store.getState().copy(),
  },
  {
    id: 'paste',
    label: 'Paste',
    keys: ['mod+v'],
    edits: true,
    enabled: (s) => s.clipboard !== null,
    run: ({ store }) => void store.getState().paste(),
  },
  {
    id: 'duplicate',
    label: 'Duplicate',
    keys: ['mod+d'],
    edits: true,
    enabled: hasSteps,
    run: ({ store }) => {
      const state = store.getState();
      const selection = state.selection;
      if (selection?.kind !== 'steps' || !state.copy()) return;
      const last = selection.stepIds[selection.stepIds.length - 1] as string;
      state.paste({ stageIndex: selection.stageIndex, after: { stepId: last } });
    },
  },
  {
    id: 'delete',
    label: 'Delete',
    keys: ['delete', 'backspace'],
    edits: true,
    enabled: hasSteps,
    run: ({ store }) => void store.getState().deleteSelection(),
  },
  {
    id: 'search',
    label: 'Find a step',
    keys: ['mod+f', '/'],
    edits: false,
    enabled: () => true,
    run: (c) => c.openSearch(),
  },
  { id: 'fit', label: 'Fit to screen', keys: ['shift+1'], edits: false, enabled: () => true, run: (c) => c.fitView() },
  {
    id: 'relayout',
    label: 'Tidy layout',
    keys: ['shift+l'],
    edits: false,
    enabled: () => true,
    run: (c) => c.relayout(),
  },
];

/** The key chord of an event, in the form `keys` use ("mod+shift+z"). */
export function chordOf(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey' | 'code'>,
): string {
  const parts: string[] = [];
  if (event.ctrlKey || event.metaKey) parts.push('mod');
  if (event.shiftKey) parts.push('shift');
  if (event.altKey) parts.push('alt');
  const key = event.code.startsWith('Digit') ? event.code.slice(5) : event.key.toLowerCase();
  parts.push(key);
  return parts.join('+');
}

export function actionForChord(chord: string): EditorAction | undefined {
  return editorActions.find((a) => a.keys.includes(chord));
}

/** "mod+shift+z" → "Ctrl+Shift+Z", for tooltips and aria-keyshortcuts. */
export function keyLabel(keys: string): string {
  return keys
    .split('+')
    .map((k) => (k === 'mod' ? 'Ctrl' : k.length === 1 ? k.toUpperCase() : k[0]?.toUpperCase() + k.slice(1)))
    .join('+');
}
