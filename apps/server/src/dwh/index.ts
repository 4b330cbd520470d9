import { OpenAPIHono } from '@hono/zod-openapi';
import type { BulkLoadService } from '../bulk-loads';
import { nextFire } from '../bulk-loads';
import { STRICT_OUTBOUND } from '../platform/addressPolicy';
import type { AppDeps, AppEnv } from '../platform/context';
import { runDueIntegrations } from './attempts';
import { dwhAuthRoutes } from './authRoutes';
import { dwhBrowseRoutes } from './browseRoutes';
import type { ConnectOptions } from './connection';
import { dwhIntegrationRoutes } from './integrationRoutes';
import { dwhOperationRoutes } from './operationRoutes';
import { postgresSource } from './postgresSource';
import { guessPostgresInput } from './sourceGuess';

/** Settings of the data-warehouse sync. */
export interface DwhOptions {
  /** How long to wait for a warehouse to accept and answer a connection; `SVC_DWH_CONNECT_TIMEOUT_MS`, else 10 s. */
  connectTimeoutMs?: number;
}

function dwhConnectOptions(deps: AppDeps, options: DwhOptions = {}): ConnectOptions {
  const fromEnv = Number(process.env.SVC_DWH_CONNECT_TIMEOUT_MS);
  return {
    outbound: deps.config.outbound ?? STRICT_OUTBOUND,
    connectTimeoutMs: options.connectTimeoutMs ?? (fromEnv > 0 ? fromEnv : 10_000),
  };
}

/** The bulk load sources this feature provides. */
export function dwhSources(deps: AppDeps, options: DwhOptions = {}) {
  const connect = dwhConnectOptions(deps, options);
  const source = postgresSource(deps, connect);
  return [{ ...source, guess: (r: GuessRequest) => guessPostgresInput(deps, connect, r.accountId, r.input) }];
}

type GuessRequest = { accountId: number; input: Record<string, unknown> };

/** `/v1` data-warehouse sync routes; integration schedules ride on the bulk load ticks. */
export function dwhRoutes(deps: AppDeps, service: BulkLoadService, options: DwhOptions = {}) {
  service.onTick((now) => runDueIntegrations(deps, service, now, nextFire));
  return new OpenAPIHono<AppEnv>()
    .route('/', dwhAuthRoutes(deps, dwhConnectOptions(deps, options)))
    .route('/', dwhBrowseRoutes(deps, dwhConnectOptions(deps, options)))
    .route('/', dwhOperationRoutes(deps, service))
    .route('/', dwhIntegrationRoutes(deps));
}
