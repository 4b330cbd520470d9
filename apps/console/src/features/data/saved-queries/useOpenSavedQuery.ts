import type { SavedQuery } from '@svc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { savedQueryQueryOptions } from './api';

export interface OpenSavedQuery {
  /** The saved query the address names, once loaded; null without one, or while it loads. */
  saved: SavedQuery | null;
  /**
   * The editor already holds this saved query (it was just saved from the editor): it becomes the one open at
   * once, and its SQL is never put back into the editor, so what the user typed since stays.
   */
  adopt: (saved: SavedQuery) => void;
}

/**
 * The saved query the editor's address names (`?saved=<id>`): once it loads, `open` puts its SQL and engine in
 * the editor (once per id, so later edits stay).
 */
export function useOpenSavedQuery(id: string | null, open: (q: SavedQuery) => void): OpenSavedQuery {
  const queryClient = useQueryClient();
  const saved = useQuery({ ...savedQueryQueryOptions(id ?? ''), enabled: id !== null });
  const opened = useRef<string | null>(null);
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    if (!saved.data || opened.current === saved.data.id) return;
    opened.current = saved.data.id;
    openRef.current(saved.data);
  }, [saved.data]);
  const adopt = useCallback(
    (q: SavedQuery) => {
      opened.current = q.id;
      queryClient.setQueryData(savedQueryQueryOptions(q.id).queryKey, q);
    },
    [queryClient],
  );
  return { saved: id !== null && saved.data?.id === id ? saved.data : null, adopt };
}
