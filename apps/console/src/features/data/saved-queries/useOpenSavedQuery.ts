import type { SavedQuery } from '@svc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { savedQueryQueryOptions } from './api';

/**
 * The saved query the editor's address names (`?saved=<id>`): once it loads, `open` puts its SQL and engine in
 * the editor (once per id, so later edits stay). Null without one, or while it loads.
 */
export function useOpenSavedQuery(id: string | null, open: (q: SavedQuery) => void): SavedQuery | null {
  const saved = useQuery({ ...savedQueryQueryOptions(id ?? ''), enabled: id !== null });
  const opened = useRef<string | null>(null);
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    if (!saved.data || opened.current === saved.data.id) return;
    opened.current = saved.data.id;
    openRef.current(saved.data);
  }, [saved.data]);
  return id !== null && saved.data?.id === id ? saved.data : null;
}
