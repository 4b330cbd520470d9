import type { BlockList } from 'node:net';
import { resolve } from 'node:path';
import { passwordProblem } from '@svc/contracts';
import { type OutboundSwitches, outboundSwitches } from './addressPolicy';
import { trustedProxiesFromEnv } from './clientAddress';
import { type SmtpSettings, smtpFromEnv } from './mail';

export interface Config {
  port: number;
  /** Folder for the control database and one DuckDB file per customer database (the embedded mode). */
  dataDir: string;
  /** Server secret: keys and session ids are stored as HMACs under it. */
  secret: string;
  /** Folder of the built console, served at `/`; absent in API-only runs. */
  consoleDir: string | null;
  /** Seeds for the first administrator on an empty data directory (automated deployments). */
  seed: { email?: string; password?: string; apiKey?: string };
  /** Console session idle timeout. */
  sessionIdleMs: number;
  /** Console session absolute lifetime (`SVC_SESSION_MAX_HOURS`, default 24 hours when absent). */
  sessionMaxMs?: number;
  /** Which private hosts outbound connections may reach (platform/addressPolicy.ts); absent: none. */
  outbound?: OutboundSwitches;
  /**
   * `SVC_PUBLIC_URL`: the address people and identity providers reach the service at. It fixes the SAML
   * entity ID, the ACS and links in messages; without it they follow the request's Host header.
   */
  publicUrl?: string | null;
  /** `SVC_TRUSTED_PROXIES`: proxies whose X-Forwarded-For names the caller (platform/clientAddress.ts); absent: none. */
  trustedProxies?: BlockList | null;
  /** `SVC_BULK_IMPORT_MAX_PARTS`: parts one bulk import session takes; absent: the default (bulk-import/options.ts). */
  bulkImportMaxParts?: number;
  /** `SVC_SMTP_URL`, `SVC_SMTP_FROM`: where invitations and password resets are mailed (platform/mail.ts); absent: none. */
  smtp?: SmtpSettings;
  /** `SVC_SSO_METADATA_REFRESH_HOURS`: how often a followed IdP metadata URL is fetched again; absent: daily. */
  ssoMetadataRefreshMs?: number;
}

const DEFAULT_IDLE_MS = 12 * 60 * 60 * 1000;

function hours(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback * 3_600_000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 366)
    throw new Error(`${name} must be a number of hours above 0, not "${raw}".`);
  return Math.round(n * 3_600_000);
}

function readPublicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`SVC_PUBLIC_URL must be a URL such as https://cdp.example.com, not "${raw}".`);
  }
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  ) {
    throw new Error(`SVC_PUBLIC_URL must be an http(s) address without user, query or fragment, not "${raw}".`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The base address of the service: `SVC_PUBLIC_URL` when set, else the origin the request came to. */
export function publicBase(config: Config, requestUrl: string): string {
  return config.publicUrl ?? new URL(requestUrl).origin;
}

/** Reads the configuration from the environment (README "Configure"). */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: { consoleDir?: string | null } = {}): Config {
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not "${env.PORT}".`);
  }
  const seed: Config['seed'] = {};
  if (env.SVC_ADMIN_EMAIL) seed.email = env.SVC_ADMIN_EMAIL;
  if (env.SVC_ADMIN_PASSWORD) {
    const problem = passwordProblem(env.SVC_ADMIN_PASSWORD);
    if (problem) throw new Error(`SVC_ADMIN_PASSWORD: ${problem}`);
    seed.password = env.SVC_ADMIN_PASSWORD;
  }
  if (env.SVC_ADMIN_API_KEY) seed.apiKey = env.SVC_ADMIN_API_KEY;
  return {
    port,
    dataDir: resolve(env.SVC_DATA_DIR ?? '.data'),
    secret: env.SVC_SECRET ?? '',
    consoleDir: env.SVC_CONSOLE_DIR ? resolve(env.SVC_CONSOLE_DIR) : (defaults.consoleDir ?? null),
    seed,
    sessionIdleMs: env.SVC_SESSION_IDLE_MINUTES ? Number(env.SVC_SESSION_IDLE_MINUTES) * 60_000 : DEFAULT_IDLE_MS,
    sessionMaxMs: hours(env.SVC_SESSION_MAX_HOURS, 'SVC_SESSION_MAX_HOURS', 24),
    ssoMetadataRefreshMs: hours(env.SVC_SSO_METADATA_REFRESH_HOURS, 'SVC_SSO_METADATA_REFRESH_HOURS', 24),
    outbound: outboundSwitches(env),
    publicUrl: readPublicUrl(env.SVC_PUBLIC_URL),
    trustedProxies: trustedProxiesFromEnv(env.SVC_TRUSTED_PROXIES),
    ...maxParts(env.SVC_BULK_IMPORT_MAX_PARTS),
    ...smtpFromEnv(env),
  };
}

/** `SVC_BULK_IMPORT_MAX_PARTS`, when set: a whole number from 1 to 1,000,000, or the start stops, naming it. */
function maxParts(raw: string | undefined): Pick<Config, 'bulkImportMaxParts'> {
  if (!raw?.trim()) return {};
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) {
    throw new Error(`SVC_BULK_IMPORT_MAX_PARTS must be a whole number from 1 to 1000000, not "${raw}".`);
  }
  return { bulkImportMaxParts: n };
}

/**
 * The journey engine's schedule from the environment: `SVC_JOURNEY_ENGINE_INTERVAL_SECONDS` (default 60; 0 turns
 * the schedule off, leaving on-demand runs).
 */
export function journeyEngineOptions(env: NodeJS.ProcessEnv): { intervalMs: number } {
  const raw = env.SVC_JOURNEY_ENGINE_INTERVAL_SECONDS;
  const seconds = raw === undefined || raw === '' ? 60 : Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) {
    throw new Error(`SVC_JOURNEY_ENGINE_INTERVAL_SECONDS must be a number of seconds from 0 to 86400, not "${raw}".`);
  }
  return { intervalMs: Math.round(seconds * 1000) };
}

/**
 * How often each node checks the schedules (bulk loads, warehouse syncs): `SVC_SCHEDULE_INTERVAL_SECONDS`, default
 * 30. A firing is claimed by one node whatever the interval (platform/storage/slots.ts).
 */
export function scheduleOptions(env: NodeJS.ProcessEnv): { tickMs?: number } {
  const raw = env.SVC_SCHEDULE_INTERVAL_SECONDS;
  if (raw === undefined || raw.trim() === '') return {};
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new Error(`SVC_SCHEDULE_INTERVAL_SECONDS must be a number of seconds from 1 to 3600, not "${raw}".`);
  }
  return { tickMs: Math.round(seconds * 1000) };
}
