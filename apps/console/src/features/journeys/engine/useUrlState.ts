import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

export type UrlPatch = Record<string, string | number | null | undefined>;

/** The search string with `patch` applied: empty, null and undefined values remove their parameter. */
export function patchSearch(current: URLSearchParams, patch: UrlPatch): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') next.delete(name);
    else next.set(name, String(value));
  }
  return next;
}

/**
 * The engine views' state that is worth sharing (tab, window, filters, page) lives in the URL. Changes
 * replace the history entry, so Back leaves the journey rather than stepping through filter changes.
 */
export function useUrlState() {
  const [params, setParams] = useSearchParams();
  const get = useCallback((name: string): string | undefined => params.get(name) ?? undefined, [params]);
  const set = useCallback(
    (patch: UrlPatch) => setParams((current) => patchSearch(current, patch), { replace: true }),
    [setParams],
  );
  return { get, set };
}
