import { type RefObject, useEffect } from 'react';
import type { ActionContext } from './model/actions';
import { actionForChord, chordOf } from './model/actions';
import type { EditorStore } from './model/editorStore';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** Shift+F10 and the ContextMenu key: the keyboard's right-click. */
function isMenuKey(event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  if (event.key === 'ContextMenu') return true;
  return event.key === 'F10' && event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/**
 * Routes keys to editor actions while focus is on the canvas, or nowhere in particular (after the focused
 * step was deleted); the menu key on a focused node opens its context menu.
 */
export function useCanvasShortcuts(
  section: RefObject<HTMLElement | null>,
  store: EditorStore,
  context: Omit<ActionContext, 'store'>,
  openMenu: (node: HTMLElement) => void,
) {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const target = event.target as Node | null;
      const here = target === document.body || (target !== null && section.current?.contains(target));
      if (!here || isTyping(event.target)) return;
      if (isMenuKey(event)) {
        const node = (event.target as HTMLElement).closest?.<HTMLElement>('.react-flow__node');
        if (!node) return;
        event.preventDefault();
        openMenu(node);
        return;
      }
      const action = actionForChord(chordOf(event));
      if (!action) return;
      const state = store.getState();
      if ((action.edits && state.readOnly) || !action.enabled(state)) return;
      event.preventDefault();
      action.run({ store, ...context });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [section, store, context, openMenu]);
}
