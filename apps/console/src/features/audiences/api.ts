import {
  folderObject,
  okResponse,
  type ParentSegmentInput,
  parentSegment,
  population,
  profileSample,
  type SegmentInput,
  type SegmentRule,
  segment,
} from '@svc/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import { resourceKeys } from '../../lib/resources';

export { folderQueryOptions, parentSegmentsQueryOptions, segmentsQueryOptions } from '../../lib/resources';

const parents = resourceKeys.parentSegments;
const audienceKeys = {
  ...parents,
  segment: (id: string, segmentId: string) => [...parents.segments(id), segmentId] as const,
  /** Counts and samples of unsaved rules, keyed by the rule and the build they ran on (a new build recounts). */
  preview: (id: string, kind: 'population' | 'sample', rule: SegmentRule, builtAt: string | null) =>
    [...parents.one(id), 'preview', builtAt, kind, rule] as const,
};

/** Parent segments, segments and the folder listings that show them (journeys' included). */
const refreshAudiences = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: parents.all }),
    queryClient.invalidateQueries({ queryKey: resourceKeys.folders.all }),
  ]);

const at = (id: string) => `/audiences/${encodeURIComponent(id)}`;

/** While a build is queued or running, the record is polled so status, population and build time update. */
export const parentSegmentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: audienceKeys.one(id),
    queryFn: ({ signal }) => api.get(at(id), parentSegment, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.buildStatus;
      return status === 'queued' || status === 'running' ? 1000 : false;
    },
  });

export const segmentQueryOptions = (id: string, segmentId: string) =>
  queryOptions({
    queryKey: audienceKeys.segment(id, segmentId),
    queryFn: ({ signal }) => api.get(`${at(id)}/segments/${encodeURIComponent(segmentId)}`, segment, { signal }),
  });

/** The live count of an unsaved rule (the console's builder). */
export const rulePopulationQueryOptions = (id: string, rule: SegmentRule, builtAt: string | null) =>
  queryOptions({
    queryKey: audienceKeys.preview(id, 'population', rule, builtAt),
    queryFn: ({ signal }) => api.post(`${at(id)}/population`, population, { rule }, { signal }),
    retry: false,
  });

export const ruleSampleQueryOptions = (id: string, rule: SegmentRule, builtAt: string | null) =>
  queryOptions({
    queryKey: audienceKeys.preview(id, 'sample', rule, builtAt),
    queryFn: ({ signal }) => api.post(`${at(id)}/sample`, profileSample, { rule, limit: 10 }, { signal }),
    retry: false,
  });

export function useCreateParentSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParentSegmentInput) => api.post('/audiences', parentSegment, body),
    onSuccess: () => refreshAudiences(queryClient),
  });
}

/** PUT of the whole edited record (spec: fetch, change, send back). */
export function useUpdateParentSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParentSegmentInput) => request('PUT', at(id), parentSegment, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(audienceKeys.one(id), saved);
      return queryClient.invalidateQueries({ queryKey: audienceKeys.list() });
    },
  });
}

export function useDeleteParentSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(at(id), okResponse),
    onSettled: () => refreshAudiences(queryClient),
  });
}

export function useRebuildParentSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${at(id)}/run`, parentSegment),
    onSuccess: (saved) => queryClient.setQueryData(audienceKeys.one(id), saved),
  });
}

export function useSaveSegment(id: string, segmentId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SegmentInput) =>
      segmentId === undefined
        ? api.post(`${at(id)}/segments`, segment, body)
        : request('PUT', `${at(id)}/segments/${encodeURIComponent(segmentId)}`, segment, body),
    onSuccess: () => refreshAudiences(queryClient),
  });
}

export function useDeleteSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (segmentId: string) => api.delete(`${at(id)}/segments/${encodeURIComponent(segmentId)}`, okResponse),
    onSettled: () => refreshAudiences(queryClient),
  });
}

export function useFolderActions() {
  const queryClient = useQueryClient();
  const onSettled = () => refreshAudiences(queryClient);
  const create = useMutation({
    mutationFn: (body: { name: string; parentFolderId: string }) => api.post('/entities/folders', folderObject, body),
    onSettled,
  });
  const rename = useMutation({
    mutationFn: ({ folderId, name }: { folderId: string; name: string }) =>
      request('PATCH', `/entities/folders/${encodeURIComponent(folderId)}`, folderObject, { name }),
    onSettled,
  });
  const remove = useMutation({
    mutationFn: (folderId: string) => api.delete(`/entities/folders/${encodeURIComponent(folderId)}`, okResponse),
    onSettled,
  });
  return { create, rename, remove };
}
