import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { AUDIT_ACTIONS, auditActionNames, auditLogResponse } from '@svc/contracts';
import { apiKeyAuth, principalOf, requireAdmin } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { csvLine, csvQuote, csvText } from '../platform/csv';
import { badRequest } from '../platform/errors';
import { errorResponsesFrom, jsonResponse as json } from '../platform/openapi';
import { parseIsoInstant } from '../platform/time';
import { type AuditQuery, everyEntry, listAudit } from './store';

const errorResponses = errorResponsesFrom({
  400: 'Invalid filter; the message names it',
  401: 'No valid API key or console session',
  403: 'The caller is not an administrator, or the key is write-only',
});
const security: Record<string, string[]>[] = [{ SVC1: [] }, { consoleSession: [] }];
const known = new Set<string>(auditActionNames);

const instant = (field: string) =>
  z
    .string()
    .max(40)
    .optional()
    .openapi({ description: `ISO 8601 date or time, e.g. 2026-11-01 or 2026-11-01T09:00:00Z (${field})` });

const filterQuery = z.object({
  actor: z
    .string()
    .trim()
    .min(1)
    .max(254)
    .optional()
    .openapi({ description: 'Who acted, as the log names them: an e-mail, an address or "identity provider"' }),
  action: z
    .string()
    .max(2000)
    .optional()
    .openapi({ description: 'One action or several, comma-separated, e.g. user.create,user.remove' }),
  from: instant('inclusive'),
  to: instant('exclusive'),
});
const pageQuery = filterQuery.extend({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().positive().optional().openapi({ description: 'next_before of the previous page' }),
});

function timeOf(field: 'from' | 'to', value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = parseIsoInstant(value);
  if (ms === null) {
    throw badRequest(`"${field}" must be an ISO 8601 date or time, e.g. 2026-11-01 or 2026-11-01T09:00:00Z.`);
  }
  return ms;
}

/** The filter a query string asks for, or 400 naming what is wrong. */
function filterOf(q: z.infer<typeof filterQuery>): AuditQuery {
  const actions = q.action
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = actions?.find((a) => !known.has(a));
  if (unknown !== undefined) {
    throw badRequest(
      `"action" names "${unknown.slice(0, 60)}", which the log does not record. GET /v3/account/audit_log/actions lists the actions.`,
    );
  }
  const from = timeOf('from', q.from);
  const to = timeOf('to', q.to);
  if (from !== undefined && to !== undefined && to <= from) {
    throw badRequest('"to" must be later than "from": the log is read from "from" up to (not including) "to".');
  }
  return { actor: q.actor, actions, from, to };
}

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Audit log'] };
  return {
    list: createRoute({
      ...base,
      method: 'get',
      path: '/v3/account/audit_log',
      summary: 'The account’s audit log, newest first, filtered and a page at a time (administrators)',
      request: { query: pageQuery },
      responses: { 200: json(auditLogResponse, 'Audit events'), ...errorResponses(400, 401, 403) },
    }),
    csv: createRoute({
      ...base,
      method: 'get',
      path: '/v3/account/audit_log.csv',
      summary: 'Every entry that matches the filter, as CSV, newest first (administrators)',
      request: { query: filterQuery },
      responses: {
        200: { description: 'The entries', content: { 'text/csv': { schema: z.string() } } },
        ...errorResponses(400, 401, 403),
      },
    }),
    actions: createRoute({
      ...base,
      method: 'get',
      path: '/v3/account/audit_log/actions',
      summary: 'The actions the audit log records, by group, with a label each',
      responses: {
        200: json(z.record(z.string(), z.record(z.string(), z.string())), 'Groups of actions'),
        ...errorResponses(401, 403),
      },
    }),
  };
}

const COLUMNS = ['id', 'time', 'actor', 'action', 'target', 'outcome', 'reason', 'details'];

/** `/v3/account/audit_log`: read the log (JSON pages or a CSV export). There is no route that changes it. */
export function auditRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>()
    .openapi(r.list, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const q = c.req.valid('query');
      return c.json(await listAudit(deps, p.accountId, { ...filterOf(q), before: q.before }, q.limit), 200);
    })
    .openapi(r.csv, async (c) => {
      const p = principalOf(c);
      requireAdmin(p);
      const filter = filterOf(c.req.valid('query'));
      const entries = everyEntry(deps, p.accountId, filter);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(csvLine(COLUMNS)));
        },
        async pull(controller) {
          const next = await entries.next();
          if (next.done) return controller.close();
          const e = next.value;
          const line = [String(e.id), e.at, e.actor, e.action, e.target ?? '', e.outcome, e.reason ?? ''];
          const details = e.details ? JSON.stringify(e.details) : '';
          controller.enqueue(encoder.encode(csvLine([...line.map(csvText), csvQuote(details)])));
        },
        async cancel() {
          await entries.return(undefined);
        },
      });
      const day = deps.clock.now().toISOString().slice(0, 10);
      return c.body(body, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${day}.csv"`,
      });
    })
    .openapi(r.actions, (c) => {
      requireAdmin(principalOf(c));
      return c.json(AUDIT_ACTIONS as Record<string, Record<string, string>>, 200);
    });
}
