import type {
  ActivationTestRequest,
  FolderEntry,
  JourneyCustomerStatus,
  JourneySimulationRequest,
  SyndicationParams,
} from '@svc/contracts';
import {
  activationDocument,
  activationList,
  activationTestResult,
  deletedResource,
  journeyMeta,
  resultReference,
} from '@svc/contracts';
import type { Journey } from '@svc/journey';
import { journeyDocumentSchema, serializeJourney } from '@svc/journey';
import { hashKey, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import { resourceKeys } from '../../lib/resources';

/** A journey answer: the document plus what the server says about it (launch problems, even splits). */
const journeyAnswer = journeyDocumentSchema.extend({ meta: journeyMeta.optional() });
export type JourneyAnswer = ReturnType<typeof journeyAnswer.parse>;

/** A statistics window as UTC days (`YYYY-MM-DD`); absent ends take the server's default (the past 30 days). */
export interface StatisticsWindow {
  from?: string;
  to?: string;
}

/** Filters and page of the profile list. */
export interface CustomerFilter {
  stage?: string;
  step?: string;
  status: JourneyCustomerStatus;
  page: number;
  perPage: number;
}

/** Which deliveries an activation's list shows. */
export type DeliveryStatusFilter = 'all' | 'success' | 'error';

export const journeyKeys = {
  all: ['journeys'] as const,
  journey: (id: string) => ['journeys', 'journey', id] as const,
  activations: (id: string) => ['journeys', 'journey', id, 'activations'] as const,
  /** Everything the engine answers about a journey (statistics, profiles, deliveries, simulations). */
  engine: (id: string) => ['journeys', 'journey', id, 'engine'] as const,
  statistics: (id: string, window: StatisticsWindow) => [...journeyKeys.engine(id), 'statistics', window] as const,
  customers: (id: string, filter: CustomerFilter) => [...journeyKeys.engine(id), 'customers', filter] as const,
  allDeliveries: (id: string) => [...journeyKeys.engine(id), 'deliveries'] as const,
  deliveries: (id: string, activationId: string, status: DeliveryStatusFilter, perPage: number) =>
    [...journeyKeys.allDeliveries(id), activationId, status, perPage] as const,
  notifications: (id: string) => [...journeyKeys.engine(id), 'notifications'] as const,
  estimate: (id: string) => [...journeyKeys.engine(id), 'estimate'] as const,
  simulation: (id: string, request: JourneySimulationRequest) =>
    [...journeyKeys.engine(id), 'simulation', request] as const,
};

/** How deep the journeys page reads a parent segment's folder tree (folders, segments, journeys). */
export const FOLDER_DEPTH = 32;

export const journeyQuery = (id: string) =>
  queryOptions({
    queryKey: journeyKeys.journey(id),
    queryFn: ({ signal }) => api.get(`/entities/journeys/${encodeURIComponent(id)}`, journeyAnswer, { signal }),
  });

export const activationsQuery = (journeyId: string) =>
  queryOptions({
    queryKey: journeyKeys.activations(journeyId),
    queryFn: ({ signal }) =>
      api.get(`/entities/journeys/${encodeURIComponent(journeyId)}/syndications`, activationList, { signal }),
  });

const journeyPath = (id: string) => `/entities/journeys/${encodeURIComponent(id)}`;

function useInvalidateJourneys() {
  const client = useQueryClient();
  return (answer?: JourneyAnswer) => {
    if (answer) client.setQueryData(journeyKeys.journey(answer.data.id), answer);
    // Journeys are listed in the folder listings too.
    return Promise.all([
      client.invalidateQueries({ queryKey: journeyKeys.all }),
      client.invalidateQueries({ queryKey: resourceKeys.folders.all }),
    ]);
  };
}

export function useCreateJourney() {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (input: { name: string; audienceId: string; folderId?: string }) =>
      api.post('/entities/journeys', journeyAnswer, {
        type: 'journey',
        attributes: {
          name: input.name,
          audienceId: input.audienceId,
          state: 'draft',
          journeyStages: [{ name: 'Stage 1', entryCriteria: null, steps: null, rootStep: null }],
        },
        relationships: input.folderId ? { parentFolder: { data: { id: input.folderId, type: 'folder-segment' } } } : {},
      }),
    onSuccess: (answer) => done(answer),
  });
}

/**
 * Saves the draft (and, with `launch`, launches it): the whole journey as PATCH. The answer is the journey as
 * stored, so it replaces the cached one instead of a refetch; what else the save changes is refetched: the
 * folder listings (name, state) and what the engine says about this journey. A launch can also replace the
 * journey it is a version of, so it refreshes the other journey entries too (not this journey's document).
 */
export function useSaveJourney(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { journey: Journey; launch?: boolean }) => {
      const attributes = serializeJourney({ ...input.journey, state: input.launch ? 'launched' : 'draft' });
      return request('PATCH', journeyPath(id), journeyAnswer, { id, type: 'journey', attributes });
    },
    onSuccess: (answer, input) => {
      const saved = journeyKeys.journey(answer.data.id);
      client.setQueryData(saved, answer);
      const journeys = input.launch
        ? client.invalidateQueries({ queryKey: journeyKeys.all, predicate: (q) => q.queryHash !== hashKey(saved) })
        : client.invalidateQueries({ queryKey: journeyKeys.engine(answer.data.id) });
      return Promise.all([journeys, client.invalidateQueries({ queryKey: resourceKeys.folders.all })]);
    },
  });
}

export function useRenameJourney() {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (input: { id: string; name: string }) =>
      request('PATCH', journeyPath(input.id), journeyAnswer, {
        id: input.id,
        type: 'journey',
        attributes: { name: input.name },
      }),
    onSuccess: (answer) => done(answer),
  });
}

export function useJourneyLifecycle(id: string) {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (action: 'pause' | 'resume') => request('PATCH', `${journeyPath(id)}/${action}`, journeyAnswer, {}),
    onSuccess: (answer) => done(answer),
  });
}

export function useDuplicateJourney() {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (input: { id: string; name: string }) =>
      api.post('/entities/journeys/duplicate', journeyAnswer, {
        id: input.id,
        type: 'journey',
        attributes: { name: input.name },
      }),
    onSuccess: (answer) => done(answer),
  });
}

/** A draft version of a launched journey: launched, it replaces that journey and takes over its profiles. */
export function useCreateVersion() {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (input: { id: string; name: string }) =>
      api.post(`/entities/journeys/${encodeURIComponent(input.id)}/versions`, journeyAnswer, { name: input.name }),
    onSuccess: (answer) => done(answer),
  });
}

export function useDeleteJourney() {
  const done = useInvalidateJourneys();
  return useMutation({
    mutationFn: (id: string) => api.delete(journeyPath(id), deletedResource),
    onSuccess: () => done(),
  });
}

export type ActivationInput = Pick<
  SyndicationParams,
  'name' | 'connectionId' | 'scheduleType' | 'scheduleOption' | 'timezone' | 'columns' | 'allColumns'
> & { description?: string | null; connectorConfig?: Record<string, unknown> };

export function useSaveActivation(journeyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { activationId: string | null; params: ActivationInput }) => {
      const body = { type: 'journeyActivationStep', attributes: { syndication_params: input.params } };
      const base = `${journeyPath(journeyId)}/syndications`;
      return input.activationId === null
        ? api.post(base, activationDocument, body)
        : request('PATCH', `${base}/${encodeURIComponent(input.activationId)}`, activationDocument, body);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: journeyKeys.journey(journeyId) }),
  });
}

/** Saves a result connection made from an activation step (a webhook, a table or a CSV file). */
export function useCreateConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; url: string }) =>
      api.post(`/v3/result/create/${encodeURIComponent(input.name)}`, resultReference, { url: input.url }),
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.connections.all }),
  });
}

/** Sends one test profile to a webhook (a URL or a saved connection) and answers how it responded. */
export function useTestActivation(journeyId: string) {
  return useMutation({
    mutationFn: (target: ActivationTestRequest) =>
      api.post(`${journeyPath(journeyId)}/syndications/test`, activationTestResult, target).then((a) => a.data),
  });
}

/** Journeys (with their folder path) from a by-folder listing. */
export function journeysOf(entries: FolderEntry[]) {
  const folders = new Map(
    entries.filter((e) => e.type === 'folder-segment').map((e) => [e.id, String(e.attributes.name ?? e.id)]),
  );
  return entries
    .filter((e) => e.type === 'journey')
    .map((e) => ({
      id: e.id,
      name: String(e.attributes.name ?? ''),
      state: String(e.attributes.state ?? 'draft'),
      paused: e.attributes.paused === true,
      updatedAt: typeof e.attributes.updatedAt === 'string' ? e.attributes.updatedAt : null,
      owner: typeof e.attributes.createdByName === 'string' ? e.attributes.createdByName : null,
      folderId: e.relationships.parentFolder.data.id,
      folderName: folders.get(e.relationships.parentFolder.data.id) ?? null,
    }));
}
