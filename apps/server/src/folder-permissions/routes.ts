import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody, type FolderPermissions, folderPermissions, folderPermissionsRequest } from '@svc/contracts';
import { restSecurity } from '../accounts/openapi';
import { defaultFolderPermission } from '../accounts/settings';
import { listUsers, type UserRow } from '../accounts/users';
import { about, auditAction } from '../audit';
import { apiKeyAuth, type Principal, principalOf, requireAdmin } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import { jsonResponse as json } from '../platform/openapi';
import { describeIssues, readParams } from '../platform/params';
import { transaction } from '../platform/storage';
import { isoSeconds } from '../platform/time';
import { type FolderInfo, folderOf } from './folders';
import { type GrantRow, grantsAlong, permissionIn, replaceGrants } from './permissions';

const error = (description: string) => json(errorBody, description);
const folderParam = z.object({
  folderId: z.string().openapi({ param: { name: 'folderId', in: 'path' }, example: '3456' }),
});
const answer = json(folderPermissions, 'Grants on the folder and inherited from its ancestors, nearest first');

async function folderFor(deps: AppDeps, principal: Principal, folderId: string): Promise<FolderInfo> {
  const folder = await folderOf(deps, principal.accountId, folderId);
  if (!folder) throw notFound('folder');
  return folder;
}

async function describe(deps: AppDeps, principal: Principal, folder: FolderInfo): Promise<FolderPermissions> {
  const { db } = deps.storage;
  const users = new Map((await listUsers(db, principal.accountId)).map((u) => [u.id, u]));
  const seen = new Set<number>();
  const grants: FolderPermissions['grants'] = [];
  // Nearest first: each user's first grant is the one that decides; farther ones are overridden.
  for (const g of await grantsAlong(db, principal.accountId, folder)) {
    const user = users.get(g.user_id);
    if (!user || seen.has(g.user_id)) continue;
    seen.add(g.user_id);
    grants.push({
      userId: String(g.user_id),
      userName: user.name,
      email: user.email,
      permission: g.permission,
      folderId: g.folder_id,
      inherited: g.folder_id !== folder.id,
      grantedAt: isoSeconds(new Date(g.granted_at)),
    });
  }
  return {
    folderId: folder.id,
    grants,
    defaultPermission: await defaultFolderPermission(db, principal.accountId),
    callerPermission: await permissionIn(db, principal, folder),
  };
}

/** Grants as the audit log keeps them: who (id and e-mail) has what, in user order. */
function grantList(grants: Pick<GrantRow, 'user_id' | 'permission'>[], users: Map<string, UserRow>) {
  return [...grants]
    .sort((a, b) => a.user_id - b.user_id)
    .map((g) => ({ user_id: g.user_id, email: users.get(String(g.user_id))?.email ?? null, permission: g.permission }));
}

function routes(deps: AppDeps) {
  const base = {
    security: restSecurity,
    middleware: [apiKeyAuth(deps)],
    tags: ['Folder permissions'],
    request: { params: folderParam },
  };
  return {
    get: createRoute({
      ...base,
      method: 'get',
      path: '/entities/folders/{folderId}/permissions',
      summary: 'Who has Full Control or View on a folder (own and inherited grants) and what the caller has',
      responses: { 200: answer, 401: error('No valid API key'), 404: error('No such folder in the account') },
    }),
    put: createRoute({
      ...base,
      method: 'put',
      path: '/entities/folders/{folderId}/permissions',
      summary: 'Set the grants on a folder (administrators): the list replaces the folder’s own grants',
      description:
        'permission is full_control (create, change, pause, resume, delete journeys in the folder and its sub-folders) or view (read only). A grant applies to sub-folders unless one of them has its own grant for the user. Users without any grant have view; administrators always have full_control.',
      request: {
        params: folderParam,
        body: { required: true, content: { 'application/json': { schema: folderPermissionsRequest } } },
      },
      responses: {
        200: answer,
        400: error('Unknown user or permission'),
        401: error('No valid API key'),
        403: error('The caller is not an administrator'),
        404: error('No such folder in the account'),
      },
    }),
  };
}

/** `/entities/folders/:folderId/permissions`: Full Control / View per user per folder (spec, Authentication 7). */
export function folderPermissionRoutes(deps: AppDeps) {
  const r = routes(deps);
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw badRequest(describeIssues(result.error), { issues: result.error.issues });
    },
  })
    .openapi(r.get, async (c) => {
      const principal = principalOf(c);
      const folder = await folderFor(deps, principal, c.req.valid('param').folderId);
      return c.json(await describe(deps, principal, folder), 200);
    })
    .openapi(r.put, async (c) => {
      const principal = principalOf(c);
      requireAdmin(principal);
      const folder = await folderFor(deps, principal, c.req.valid('param').folderId);
      const parsed = folderPermissionsRequest.safeParse(await readParams(c));
      if (!parsed.success) throw badRequest(describeIssues(parsed.error), { issues: parsed.error.issues });
      const { db } = deps.storage;
      const users = new Map((await listUsers(db, principal.accountId)).map((u) => [String(u.id), u]));
      const grants = new Map<number, (typeof parsed.data.permissions)[number]['permission']>();
      for (const g of parsed.data.permissions) {
        if (!users.has(String(g.userId))) {
          throw badRequest(`There is no user ${g.userId} in this account; grant permissions to its users only.`);
        }
        grants.set(Number(g.userId), g.permission);
      }
      const own = (await grantsAlong(db, principal.accountId, folder)).filter((g) => g.folder_id === folder.id);
      const next = [...grants].map(([userId, permission]) => ({ userId, permission }));
      const before = grantList(own, users);
      const after = grantList(
        next.map((g) => ({ user_id: g.userId, permission: g.permission })),
        users,
      );
      await transaction(deps.storage, async (tx) => {
        await replaceGrants(tx, principal.accountId, folder.id, next, principal.userId, deps.clock.now().getTime());
        // Saving the grants as they were changes nothing, so it is not a permission change to record.
        if (JSON.stringify(before) === JSON.stringify(after)) return;
        const details = { parent_segment_id: folder.parentSegmentId, before, after };
        await auditAction(
          deps,
          principal,
          'folder.permissions_change',
          about('folder', folder.id, folder.name, details),
          tx,
        );
      });
      return c.json(await describe(deps, principal, folder), 200);
    });
}
