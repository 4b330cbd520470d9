import {
  type JourneySimulationRequest,
  journeyCustomers,
  journeyDeliveries,
  journeyEstimate,
  journeyHandover,
  journeyNotifications,
  journeyRunSummary,
  journeySimulation,
  journeyStatistics,
} from '@svc/contracts';
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { type CustomerFilter, type DeliveryStatusFilter, journeyKeys, type StatisticsWindow } from '../api';

/** Query options and the run mutation of the journey engine's routes (`/entities/journeys/:id/...`). */

const base = (journeyId: string) => `/entities/journeys/${encodeURIComponent(journeyId)}`;

function queryString(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const statisticsQuery = (journeyId: string, window: StatisticsWindow) =>
  queryOptions({
    queryKey: journeyKeys.statistics(journeyId, window),
    queryFn: ({ signal }) =>
      api.get(`${base(journeyId)}/statistics${queryString({ ...window })}`, journeyStatistics, { signal }),
    select: (answer) => answer.data,
    placeholderData: keepPreviousData,
    // The schedule runs the engine every minute; the figures follow.
    refetchInterval: 60_000,
  });

/** What the next run would do (for a draft: the first run after launch); never cached for long. */
export const estimateQuery = (journeyId: string) =>
  queryOptions({
    queryKey: journeyKeys.estimate(journeyId),
    queryFn: ({ signal }) => api.get(`${base(journeyId)}/estimate`, journeyEstimate, { signal }),
    select: (answer) => answer.data,
    staleTime: 0,
  });

/** What launching a draft version would do to the profiles of the journey it replaces (data null otherwise). */
export const handoverQuery = (journeyId: string) =>
  queryOptions({
    queryKey: [...journeyKeys.estimate(journeyId), 'handover'],
    queryFn: ({ signal }) => api.get(`${base(journeyId)}/handover`, journeyHandover, { signal }),
    select: (answer) => answer.data,
    staleTime: 0,
  });

/** A page of the journey's profiles: by the cursor of the page before when `after` is given, else by number. */
export const customersQuery = (journeyId: string, filter: CustomerFilter, after?: string) =>
  queryOptions({
    queryKey: [...journeyKeys.customers(journeyId, filter), after ?? null],
    queryFn: ({ signal }) =>
      api.get(
        `${base(journeyId)}/customers${queryString({
          stage: filter.stage,
          step: filter.step,
          status: filter.status,
          page: after === undefined ? filter.page : undefined,
          after,
          per_page: filter.perPage,
        })}`,
        journeyCustomers,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** An activation's deliveries, newest first, a page at a time (`before` is the cursor of older ones). */
export const deliveriesQuery = (
  journeyId: string,
  activationId: string,
  status: DeliveryStatusFilter,
  perPage: number,
) =>
  infiniteQueryOptions({
    queryKey: journeyKeys.deliveries(journeyId, activationId, status, perPage),
    queryFn: ({ signal, pageParam }) =>
      api.get(
        `${base(journeyId)}/syndications/${encodeURIComponent(activationId)}/deliveries${queryString({
          status: status === 'all' ? undefined : status,
          per_page: perPage,
          before: pageParam ?? undefined,
        })}`,
        journeyDeliveries,
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.meta.next,
  });

export const notificationsQuery = (journeyId: string) =>
  queryOptions({
    queryKey: journeyKeys.notifications(journeyId),
    queryFn: ({ signal }) => api.get(`${base(journeyId)}/notifications`, journeyNotifications, { signal }),
    select: (answer) => answer.data,
  });

/** A dry run: a POST that changes nothing, so it is a query keyed by what was asked. */
export const simulationQuery = (journeyId: string, request: JourneySimulationRequest) =>
  queryOptions({
    queryKey: journeyKeys.simulation(journeyId, request),
    queryFn: ({ signal }) => api.post(`${base(journeyId)}/simulation`, journeySimulation, request, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Where the CSV file of a delivery to a `csv://` connection downloads from (same origin, session cookie). */
export function deliveryFileUrl(journeyId: string, activationId: string, deliveryId: string): string {
  return `${base(journeyId)}/syndications/${encodeURIComponent(activationId)}/deliveries/${encodeURIComponent(deliveryId)}/file`;
}

/** Runs the engine for the journey now; afterwards every engine figure of the journey is fetched again. */
export function useRunJourney(journeyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${base(journeyId)}/run`, journeyRunSummary).then((answer) => answer.data),
    onSuccess: () => client.invalidateQueries({ queryKey: journeyKeys.engine(journeyId) }),
  });
}
