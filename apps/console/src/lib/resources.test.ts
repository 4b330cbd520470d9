import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  databasesQueryOptions,
  folderQueryOptions,
  jobQueryOptions,
  parentSegmentsQueryOptions,
  resourceKeys,
  segmentsQueryOptions,
  tablesQueryOptions,
} from './resources';

/** Replaces the browser's fetch (not our code) with one answering by path; records the paths asked. */
function serve(bodies: Record<string, unknown>): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    const body = bodies[url.split('?')[0] ?? url];
    return new Response(JSON.stringify(body ?? {}), {
      status: body === undefined ? 404 : 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return asked;
}

const database = (name: string) => ({
  name,
  count: 0,
  created_at: '2026-11-22 09:00:00 +0000',
  updated_at: '2026-11-22 09:00:00 +0000',
  organization: null,
  permission: 'owner',
});

afterEach(() => vi.unstubAllGlobals());

describe('the shared query-options factories', () => {
  it('key every resource under its own prefix, children under their parent', () => {
    expect(tablesQueryOptions('shop').queryKey.slice(0, 3)).toEqual(resourceKeys.databases.one('shop'));
    expect(databasesQueryOptions().queryKey.slice(0, 1)).toEqual(resourceKeys.databases.all);
    expect(segmentsQueryOptions('7').queryKey.slice(0, 3)).toEqual(resourceKeys.parentSegments.one('7'));
    expect(parentSegmentsQueryOptions().queryKey[0]).toBe(resourceKeys.parentSegments.all[0]);
    expect(folderQueryOptions('3', 32).queryKey[0]).toBe(resourceKeys.folders.all[0]);
    expect(jobQueryOptions('12').queryKey).toEqual(resourceKeys.jobs.one('12'));
  });

  it('cache one resource once, and a prefix invalidates exactly what is under it', async () => {
    const asked = serve({
      '/v3/database/list': { databases: [database('shop'), database('web')] },
      '/v3/table/list/shop': { database: 'shop', tables: [] },
      '/v3/table/list/web': { database: 'web', tables: [] },
    });
    const client = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
    });
    const names = await client.fetchQuery(databasesQueryOptions());
    expect(names.map((d) => d.name)).toEqual(['shop', 'web']);
    // A second feature asking for the databases reads the same entry: no second request.
    await client.fetchQuery(databasesQueryOptions());
    await client.fetchQuery(tablesQueryOptions('shop'));
    await client.fetchQuery(tablesQueryOptions('web'));
    expect(asked).toEqual(['/v3/database/list', '/v3/table/list/shop', '/v3/table/list/web']);

    await client.invalidateQueries({ queryKey: resourceKeys.databases.one('shop') }, { cancelRefetch: false });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect(stale(tablesQueryOptions('shop').queryKey)).toBe(true);
    expect(stale(tablesQueryOptions('web').queryKey)).toBe(false);
    expect(stale(databasesQueryOptions().queryKey)).toBe(false);

    await client.invalidateQueries({ queryKey: resourceKeys.databases.all });
    expect(stale(tablesQueryOptions('web').queryKey)).toBe(true);
    expect(stale(databasesQueryOptions().queryKey)).toBe(true);
  });
});
