import { Socket } from 'node:net';
import type { SslMode } from '@svc/contracts';
import pg from 'pg';
import { hostProblem, type OutboundSwitches, pinnedLookup } from '../platform/addressPolicy';

/**
 * Connections to a PostgreSQL warehouse. Every value arrives as the server's text (one type parser for
 * all types), so nothing is rounded on the way: conversions happen in SQL or in typeMap.ts. Sessions run
 * in UTC so timestamps print the same wherever the server is.
 */

export interface ConnectionSpec {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  ssl_mode: SslMode;
}

export interface ConnectOptions {
  /** The operator's outbound switches (loopback warehouses: tests, single-box installs). */
  outbound: OutboundSwitches;
  connectTimeoutMs?: number;
}

/** A failure a person can fix (wrong password, unreachable host, missing table); other errors are bugs. */
export class WarehouseError extends Error {
  override name = 'WarehouseError';
}

const raw = (value: string) => value;
const types = { getTypeParser: () => raw } as unknown as pg.CustomTypesConfig;

/**
 * The platform's outbound address policy for warehouses: loopback only where the installation allows it,
 * link-local (the cloud metadata service) and reserved never; private ranges are allowed, since
 * self-hosted warehouses live there. Checked at every connection, after resolving the name.
 */
async function checkHost(host: string, options: ConnectOptions): Promise<void> {
  const problem = await hostProblem(host, 'warehouse', options.outbound, 'send');
  if (problem) throw new WarehouseError(problem);
}

/**
 * The driver's socket, resolving the host through the policy when it connects: the address connected to is
 * one the policy approves then, so a name whose DNS answer changes after `checkHost` reaches nothing else.
 */
function pinnedSocket(outbound: OutboundSwitches): Socket {
  const socket = new Socket();
  const connect = socket.connect.bind(socket);
  const lookup = pinnedLookup('warehouse', outbound);
  socket.connect = ((port: number, host: string) => connect({ port, host, lookup })) as Socket['connect'];
  return socket;
}

/** pg's words when a server answers the TLS request with "no": `prefer` then connects without TLS. */
const NO_TLS = /does not support SSL/i;

/** Turns a driver or network error into a sentence naming what to check. */
export function describeFailure(
  err: unknown,
  spec: Pick<ConnectionSpec, 'host' | 'port' | 'user' | 'database'>,
): string {
  const e = err as { code?: string; message?: string };
  const where = `${spec.host}:${spec.port}`;
  switch (e.code) {
    case 'ESVCREFUSED':
      return e.message ?? 'The address policy refused the warehouse host.';
    case '28P01':
    case '28000':
      return `The warehouse refused the login of user "${spec.user}": check the user name and password of the authentication (${e.message ?? ''}).`;
    case '3D000':
      return `The warehouse at ${where} has no database "${spec.database}": check the database name.`;
    case 'ECONNREFUSED':
      return `Could not connect to ${where}: the connection was refused. Check the host and port, and that PostgreSQL listens there.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host "${spec.host}" could not be resolved: check its spelling.`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Could not reach ${where} (${e.code}): check the host, the port and any firewall in between.`;
    case '42P01':
      return `The source table does not exist (was it dropped or renamed?): ${e.message ?? ''}`;
    case '42703':
      return `A source column does not exist (was it dropped or renamed?): ${e.message ?? ''}`;
    case '42501':
      return `The warehouse user "${spec.user}" may not read this: ${e.message ?? ''}`;
    default:
      if (/timeout/i.test(e.message ?? '')) {
        return `Could not reach ${where} in time: check the host, the port and any firewall in between.`;
      }
      if (NO_TLS.test(e.message ?? '')) {
        return `The warehouse at ${where} does not offer TLS, and the SSL mode "require" or "verify-full" needs it: use "prefer" (TLS when offered) or "disable", or turn TLS on in the warehouse.`;
      }
      if (/ssl|certificate|self.signed|altnames/i.test(e.message ?? '')) {
        return `The secure connection to ${where} failed (${e.message}): check the SSL mode of the authentication.`;
      }
      return `The warehouse answered with an error: ${e.message ?? String(err)}`;
  }
}

/** A client for the spec with TLS on or off (`verify-full` checks the certificate and the host name). */
function client(spec: ConnectionSpec, options: ConnectOptions, tls: boolean): pg.Client {
  const c = new pg.Client({
    host: spec.host,
    port: spec.port,
    database: spec.database,
    user: spec.user,
    password: spec.password,
    ssl: tls ? { rejectUnauthorized: spec.ssl_mode === 'verify-full' } : false,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: 'svc-dwh-sync',
    types,
    stream: () => pinnedSocket(options.outbound),
  });
  // A connection lost between queries is reported by the next query; this keeps it from being unhandled.
  c.on('error', () => {});
  return c;
}

async function open(c: pg.Client): Promise<pg.Client> {
  try {
    await c.connect();
    await c.query("SET TIME ZONE 'UTC'");
    return c;
  } catch (err) {
    await c.end().catch(() => {});
    throw err;
  }
}

/**
 * Opens a connected client (UTC session); the caller ends it. Failures are WarehouseErrors. `prefer` (as
 * libpq does) asks for TLS first and connects without it when the server has none.
 */
export async function connect(spec: ConnectionSpec, options: ConnectOptions): Promise<pg.Client> {
  await checkHost(spec.host, options);
  try {
    try {
      return await open(client(spec, options, spec.ssl_mode !== 'disable'));
    } catch (err) {
      if (spec.ssl_mode !== 'prefer' || !NO_TLS.test((err as Error).message ?? '')) throw err;
      return await open(client(spec, options, false));
    }
  } catch (err) {
    throw new WarehouseError(describeFailure(err, spec));
  }
}

/** Runs `work` on a fresh connection and always closes it; query errors become WarehouseErrors. */
export async function withConnection<T>(
  spec: ConnectionSpec,
  options: ConnectOptions,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connect(spec, options);
  try {
    return await work(client);
  } catch (err) {
    if (err instanceof WarehouseError) throw err;
    if ((err as { code?: unknown }).code !== undefined) throw new WarehouseError(describeFailure(err, spec));
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

/** `"schema"."table"` with embedded quotes doubled. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
