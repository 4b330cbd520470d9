import {
  type AdvancedConfig,
  databaseReference,
  dwhFeature,
  type GuessResult,
  guessResult,
  type IntegrationConfigs,
  integration,
  integrationConfigs,
  integrationCreated,
  integrationStatus,
  integrationStatusList,
  sessionAttempt,
  sessionAttemptList,
  warehouseSchemas,
  warehouseTableSchema,
  warehouseTables,
  workflowRun,
} from '@svc/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../lib/api';
import { resourceKeys } from '../../lib/resources';

/** Data-warehouse sync calls (`/v1`), with the console session. */

export const dwhKeys = {
  all: ['dwh'] as const,
  feature: () => [...dwhKeys.all, 'feature'] as const,
  authentications: () => [...dwhKeys.all, 'authentications'] as const,
  schemas: (authId: number) => [...dwhKeys.all, 'schemas', authId] as const,
  tables: (authId: number, schema: string) => [...dwhKeys.all, 'tables', authId, schema] as const,
  tableSchema: (authId: number, schema: string, table: string) =>
    [...dwhKeys.all, 'table-schema', authId, schema, table] as const,
  statuses: () => [...dwhKeys.all, 'statuses'] as const,
  integration: (id: string) => [...dwhKeys.all, 'integration', id] as const,
  status: (id: string) => [...dwhKeys.integration(id), 'status'] as const,
  attempts: (id: string) => [...dwhKeys.integration(id), 'attempts'] as const,
  attempt: (id: string, attemptId: string) => [...dwhKeys.attempts(id), attemptId] as const,
};

const enc = encodeURIComponent;
const running = (status: string | undefined) => status === 'queued' || status === 'running';

export const featureQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.feature(),
    queryFn: ({ signal }) => api.get('/v1/dwh/feature', dwhFeature, { signal }),
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
        .get(`/v1/authentications/${authId}/tables?schema=${enc(schema)}`, warehouseTables, { signal })
        .then((r) => r.tables),
    retry: false,
  });

/** A warehouse table's columns, with the types each may take (to add columns back when editing). */
export const tableSchemaQueryOptions = (authId: number, schema: string, table: string, database?: string) =>
  queryOptions({
    queryKey: [...dwhKeys.tableSchema(authId, schema, table), database ?? ''],
    queryFn: ({ signal }) =>
      api.get(
        `/v1/authentications/${authId}/tables/${enc(schema)}/${enc(table)}${database ? `?database=${enc(database)}` : ''}`,
        warehouseTableSchema,
        { signal },
      ),
    retry: false,
  });

/** Every sync with its state, next and latest run; polled while a run is going. */
export const statusesQueryOptions = () =>
  queryOptions({
    queryKey: dwhKeys.statuses(),
    queryFn: ({ signal }) => api.get('/v1/dwh/status', integrationStatusList, { signal }).then((r) => r.items),
    refetchInterval: (query) => (query.state.data?.some((s) => running(s.last_run?.status)) ? 2000 : false),
  });

export const statusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dwhKeys.status(id),
    queryFn: ({ signal }) => api.get(`/v1/dwh/${enc(id)}/status`, integrationStatus, { signal }),
    refetchInterval: (query) => (running(query.state.data?.last_run?.status) ? 1000 : false),
  });

/** One run with each table's rows, duration and error; polled until it ends. */
export const attemptQueryOptions = (id: string, attemptId: string) =>
  queryOptions({
    queryKey: dwhKeys.attempt(id, attemptId),
    queryFn: ({ signal }) =>
      api.get(`/v1/dwh/${enc(id)}/session_attempts/${enc(attemptId)}`, sessionAttempt, { signal }),
    refetchInterval: (query) => (query.state.data?.done ? false : 1000),
  });

export const integrationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dwhKeys.integration(id),
    queryFn: async ({ signal }) => {
      const [item, configs] = await Promise.all([
        api.get(`/v1/dwh/${enc(id)}`, integration, { signal }),
        api.get(`/v1/dwh/${enc(id)}/configs`, integrationConfigs, { signal }),
      ]);
      return { item, configs };
    },
  });

export const attemptsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: dwhKeys.attempts(id),
    queryFn: ({ signal }) =>
      api.get(`/v1/dwh/${enc(id)}/session_attempts`, sessionAttemptList, { signal }).then((r) => r.items),
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

export function useGuess() {
  return useMutation({
    mutationFn: (body: { svc_authentication_id: number; schema: string; tables: string[]; database?: string }) =>
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

/** Runs every table now, or (`resync`) loads every table from scratch. */
export function useRunIntegration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resync: boolean) =>
      request('PUT', `/v1/dwh/${enc(id)}/${resync ? 'resync' : 'run_workflow'}`, workflowRun),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: dwhKeys.integration(id) });
      void queryClient.invalidateQueries({ queryKey: dwhKeys.statuses() });
    },
  });
}

export function useSetPaused(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paused: boolean) =>
      request('PUT', `/v1/dwh/${enc(id)}/${paused ? 'pause' : 'resume'}`, integrationStatus),
    onSuccess: (status) => {
      queryClient.setQueryData(dwhKeys.status(id), status);
      void queryClient.invalidateQueries({ queryKey: dwhKeys.statuses() });
    },
  });
}

export type IntegrationChanges = Partial<Omit<NewIntegration, 'output_config' | 'basic_configs'>> & {
  basic_configs?: IntegrationConfigs['basic_configs'];
};

export function useUpdateIntegration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: IntegrationChanges) => request('PUT', `/v1/dwh/${enc(id)}`, integration, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dwhKeys.all }),
  });
}

/** Deletes a sync; with `dropTables` its target tables too (the database's table list changes then). */
export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, dropTables }: { id: string; dropTables: boolean }) =>
      api.delete(`/v1/dwh/${enc(id)}${dropTables ? '?drop_tables=true' : ''}`, integration),
    onSuccess: (_deleted, { id, dropTables }) => {
      queryClient.removeQueries({ queryKey: dwhKeys.integration(id) });
      void queryClient.invalidateQueries({ queryKey: dwhKeys.statuses() });
      if (dropTables) void queryClient.invalidateQueries({ queryKey: resourceKeys.databases.all });
    },
  });
}
