import { create } from 'zustand';

/** Where dropped files should go, when the page they were dropped on knows. */
export interface ImportTarget {
  database?: string;
  table?: string;
}

interface PendingFilesState {
  files: File[];
  target: ImportTarget;
  /** Hands files over to the wizard, which takes them on mount. */
  offer: (files: File[], target?: ImportTarget) => void;
  /** The wizard takes what was offered, once. */
  take: () => { files: File[]; target: ImportTarget };
}

/**
 * Files dropped on a data page before the wizard route has loaded. File objects cannot travel in the URL,
 * so this small client-only store carries them across the navigation.
 */
export const usePendingFiles = create<PendingFilesState>((set, get) => ({
  files: [],
  target: {},
  offer: (files, target = {}) => set({ files, target }),
  take: () => {
    const { files, target } = get();
    set({ files: [], target: {} });
    return { files, target };
  },
}));
