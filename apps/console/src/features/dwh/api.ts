import {
  type AdvancedConfig,
  authentication,
  authenticationList,
  connectionTest,
  databaseReference,
  dwhFeature,
  type GuessResult,
  guessResult,
  integration,
  integrationConfigs,
  integrationCreated,
  integrationList,
  sessionAttemptList,
  warehouseSchemas,
  warehouseTables,
  workflowRun,
} from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';

/** Data-warehouse sync calls (`/v1`), with the console session. */

export const dwhKeys = {
  all: ['dwh'] as const,
  feature: () => [...dwhKeys.all, 'feature'] as const,
  authentications: () => [...dwhKeys.all, 'authentications'] as const,
  schemas: (authId: number) => [...dwhKeys.all, 'schemas', authId] as const,
  tables: (authId: number, schema: string) => [...dwhKeys.all, 'tables', authId, schema] as const,
  integrations: () => [...dwhKeys.all, 'integrations'] as const,
  integration: (id: string) => [...dwhKeys.all, 'integration', id] as const,
  attempts: (id: string) => [...dwhKeys.all, 'attempts', id] as const,
};

export const featureQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.feature(),
    queryFn: ({ signal }) => api.get('/v1/dwh/feature', dwhFeature, { signal }),
  });

export const authenticationsQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.authentications(),
    queryFn: ({ signal }) =>
      api.get('/v1/authentications', authenticationList, { signal }).then((r) => r.authentications),
  });

export const schemasQueryOptions = (authId: number) =>
  queryOptions({
    queryKey: dwhKeys.schemas(authId),
    queryFn: ({ signal }) =>
      api.get(`/v1/authentications/${authId}/schemas`, warehouseSchemas, { signal }).then((r) => r.schemas),
    retry: false,
  });

export const tablesQueryOptions = (authId: number, schema: string) =>
  queryOptions({
    queryKey: dwhKeys.tables(authId, schema),
    queryFn: ({ signal }) =>
      api
        .get(`/v1/authentications/${authId}/tables?schema=${encodeURIComponent(schema)}`, warehouseTables, { signal })
        .then((r) => r.tables),
    retry: false,
  });

export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.integrations(),
    queryFn: ({ signal }) => api.get('/v1/dwh/', integrationList, { signal }).then((r) => r.items),
  });

export const integrationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dwhKeys.integration(id),
    queryFn: async ({ signal }) => {
      const [item, configs] = await Promise.all([
        api.get(`/v1/dwh/${encodeURIComponent(id)}`, integration, { signal }),
        api.get(`/v1/dwh/${encodeURIComponent(id)}/configs`, integrationConfigs, { signal }),
      ]);
      return { item, configs };
    },
  });

export const attemptsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dwhKeys.attempts(id),
    queryFn: ({ signal }) =>
      api
        .get(`/v1/dwh/${encodeURIComponent(id)}/session_attempts`, sessionAttemptList, { signal })
        .then((r) => r.items),
    // While a run is going, look again every second; finished runs need no polling.
    refetchInterval: (query) => (query.state.data?.some((a) => !a.done) ? 1000 : false),
  });

export function useSetFeature() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => request('PUT', '/v1/dwh/feature', dwhFeature, { enabled }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.all }),
  });
}

export interface NewAuthentication {
  name: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  ssl_mode: 'disable' | 'require' | 'verify-full';
}

export function useCreateAuthentication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewAuthentication) => api.post('/v1/authentications', authentication, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.authentications() }),
  });
}

export function useTestAuthentication() {
  return useMutation({
    mutationFn: (id: number) => api.post(`/v1/authentications/${id}/test`, connectionTest),
  });
}

export function useGuess() {
  return useMutation({
    mutationFn: (body: { svc_authentication_id: number; schema: string; tables: string[] }) =>
      api.post('/v1/guess', guessResult, body),
  });
}

export interface NewIntegration {
  name: string;
  schedule_type: string;
  schedule_option: string | null;
  timezone: string;
  basic_configs: GuessResult['basic_configs'];
  advanced_configs: AdvancedConfig[];
  output_config: { database: string };
}

/** Creates the target database when missing, the integration, and starts its first run. */
export function useCreateIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, createDatabase }: { body: NewIntegration; createDatabase: boolean }) => {
      if (createDatabase) {
        await api.post(`/v3/database/create/${encodeURIComponent(body.output_config.database)}`, databaseReference);
      }
      const { dwh_id } = await api.post('/v1/dwh/', integrationCreated, body);
      await request('PUT', `/v1/dwh/${dwh_id}/run_workflow`, workflowRun);
      return dwh_id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.all }),
  });
}

export function useRunIntegration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request('PUT', `/v1/dwh/${encodeURIComponent(id)}/run_workflow`, workflowRun),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.attempts(id) }),
  });
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/v1/dwh/${id}`, integration),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.integrations() }),
  });
}
