import {
  folderListing,
  folderObject,
  okResponse,
  type ParentSegmentInput,
  parentSegment,
  parentSegmentList,
  population,
  profileSample,
  type SegmentInput,
  type SegmentRule,
  segment,
} from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';

const segmentList = segment.array();

export const audienceKeys = {
  all: ['audiences'] as const,
  list: () => [...audienceKeys.all, 'list'] as const,
  detail: (id: string) => [...audienceKeys.all, 'detail', id] as const,
  segments: (id: string) => [...audienceKeys.detail(id), 'segments'] as const,
  segment: (id: string, segmentId: string) => [...audienceKeys.segments(id), segmentId] as const,
  /** Counts and samples of unsaved rules, keyed by the rule and the build they ran on (a new build recounts). */
  preview: (id: string, kind: 'population' | 'sample', rule: SegmentRule, builtAt: string | null) =>
    [...audienceKeys.all, 'preview', id, builtAt, kind, rule] as const,
  folder: (folderId: string, depth: number) => [...audienceKeys.all, 'folder', folderId, depth] as const,
};

const at = (id: string) => `/audiences/${encodeURIComponent(id)}`;

export const parentSegmentsQueryOptions = () =>
  queryOptions({
    queryKey: audienceKeys.list(),
    queryFn: ({ signal }) => api.get('/audiences', parentSegmentList, { signal }),
  });

/** While a build is queued or running, the record is polled so status, population and build time update. */
export const parentSegmentQueryOptions = (id: string) =>
  queryOptions({
    queryKey: audienceKeys.detail(id),
    queryFn: ({ signal }) => api.get(at(id), parentSegment, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.buildStatus;
      return status === 'queued' || status === 'running' ? 1000 : false;
    },
  });

export const segmentsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: audienceKeys.segments(id),
    queryFn: ({ signal }) => api.get(`${at(id)}/segments`, segmentList, { signal }),
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

export const folderQueryOptions = (folderId: string, depth: number) =>
  queryOptions({
    queryKey: audienceKeys.folder(folderId, depth),
    queryFn: ({ signal }) =>
      api.get(`/entities/by-folder/${encodeURIComponent(folderId)}?depth=${depth}`, folderListing, { signal }),
  });

export function useCreateParentSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParentSegmentInput) => api.post('/audiences', parentSegment, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: audienceKeys.list() }),
  });
}

/** PUT of the whole edited record (spec: fetch, change, send back). */
export function useUpdateParentSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ParentSegmentInput) => request('PUT', at(id), parentSegment, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(audienceKeys.detail(id), saved);
      return queryClient.invalidateQueries({ queryKey: audienceKeys.list() });
    },
  });
}

export function useDeleteParentSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(at(id), okResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: audienceKeys.all }),
  });
}

export function useRebuildParentSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${at(id)}/run`, parentSegment),
    onSuccess: (saved) => queryClient.setQueryData(audienceKeys.detail(id), saved),
  });
}

export function useSaveSegment(id: string, segmentId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SegmentInput) =>
      segmentId === undefined
        ? api.post(`${at(id)}/segments`, segment, body)
        : request('PUT', `${at(id)}/segments/${encodeURIComponent(segmentId)}`, segment, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: audienceKeys.all }),
  });
}

export function useDeleteSegment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (segmentId: string) => api.delete(`${at(id)}/segments/${encodeURIComponent(segmentId)}`, okResponse),
    onSettled: () => queryClient.invalidateQueries({ queryKey: audienceKeys.all }),
  });
}

export function useFolderActions() {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: audienceKeys.all });
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
