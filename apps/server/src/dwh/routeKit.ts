import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, forbidden } from '../platform/errors';
import { errorResponse, jsonResponse } from '../platform/openapi';
import { WarehouseError } from './connection';
import { requireFeature } from './feature';

/** Pieces shared by the data-warehouse sync routes. */

export const json = jsonResponse;
/** A documented error answer: the contract's one error body, `/v1` included. */
export const error = errorResponse;
export const jsonBody = (description: string) => ({
  description,
  required: true,
  content: { 'application/json': { schema: { type: 'object' as const } } },
});
export const idParam = z.object({ id: z.string().meta({ description: 'Id', example: '1' }) });
export const dwhIdParam = z.object({ dwh_id: z.string().meta({ description: 'Integration id', example: '1' }) });

export const commonErrors = {
  401: error('No valid API key or session'),
  403: error('Write-only key, or the feature is not enabled for the account'),
};

export function base(deps: AppDeps, tag: string) {
  return { security: [{ SVC1: [] }], middleware: [apiKeyAuth(deps)], tags: [tag] };
}

/** The caller, once the feature is known to be on for its account. */
export async function enabledPrincipal(deps: AppDeps, c: Context<AppEnv>) {
  const p = principalOf(c);
  await requireFeature(deps, p.accountId);
  return p;
}

export const page = (n: number) => ({ page: 1, size: n, total_pages: 1 });
export const listQuery = z.object({
  all: z
    .enum(['true', 'false', '1', '0'], { error: '"all" must be true or false.' })
    .optional()
    .openapi({ description: 'Administrators: `true` lists every user’s integrations, not only their own' }),
});

/** Whose integrations a list shows: the caller's own, or with `all=true` (administrators only) every one. */
export async function listPrincipal(deps: AppDeps, c: Context<AppEnv>) {
  const p = await enabledPrincipal(deps, c);
  const all = ['true', '1'].includes(c.req.query('all') ?? '');
  if (all && !p.administrator) {
    throw forbidden('Only an administrator can list every user’s integrations (all=true); leave out "all" for yours.');
  }
  return { ...p, owner: all ? null : p.userId };
}

/** Warehouse failures a person can fix answer 400 with the sentence that says what to check. */
export async function warehouse<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof WarehouseError) throw badRequest(err.message);
    throw err;
  }
}
