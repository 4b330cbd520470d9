import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * How the marketer arranged the journey workspace: focus mode (the canvas takes the whole window) and
 * which panels are open. Kept in this browser (localStorage), so it is the same on the next visit.
 */
export interface WorkspaceState {
  focus: boolean;
  palette: boolean;
  panel: boolean;
  minimap: boolean;
  setFocus(focus: boolean): void;
  toggle(part: 'palette' | 'panel' | 'minimap'): void;
}

const WORKSPACE_STORAGE_KEY = 'svc.journeyWorkspace';

export const useWorkspace = create<WorkspaceState>()(
  persist(
    (set) => ({
      focus: false,
      palette: true,
      panel: true,
      minimap: true,
      setFocus: (focus) => set({ focus }),
      toggle: (part) => set((s) => ({ [part]: !s[part] }) as Pick<WorkspaceState, typeof part>),
    }),
    {
      name: WORKSPACE_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ focus: s.focus, palette: s.palette, panel: s.panel, minimap: s.minimap }),
    },
  ),
);
