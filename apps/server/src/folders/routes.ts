import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { errorBody, folderCreate, folderListing, folderObject, folderRename } from '@svc/contracts';
import type { Context } from 'hono';
import { deleteGrantsOn } from '../folder-permissions';
import { apiKeyAuth, principalOf } from '../platform/auth';
import type { AppDeps, AppEnv } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { parseId } from '../platform/ids';
import { jsonResponse as json } from '../platform/openapi';
import { input } from '../platform/params';
import { transaction } from '../platform/storage';
import { requireFolderControl } from './access';
import { entriesIn, folderEntry, listFolder } from './entries';
import {
  ancestorIds,
  deleteFolderRow,
  descendants,
  type FolderRow,
  folderRow,
  insertFolder,
  MAX_FOLDER_DEPTH,
  renameFolderRow,
} from './store';

const security = [{ SVC1: [] }];
const folderId = z.string().openapi({ description: 'Folder id', example: '3456' });
const reasons: Record<number, string> = {
  400: 'Invalid input (a depth above 32, an empty name)',
  401: 'No valid API key or console session',
  403: 'A write-only key, or only View permission on the folder (writes need Full Control)',
  404: 'No such folder in the caller’s account',
  409: 'The name is taken, or the folder is not empty, or it is a root folder',
};
const errors = (...codes: number[]) =>
  Object.fromEntries(codes.map((c) => [c, json(errorBody, reasons[c] ?? 'Error')]));
const body = (schema: z.ZodType, description: string) => {
  const { $schema: _, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' });
  return {
    description,
    required: true,
    content: { 'application/json': { schema: jsonSchema as { type?: 'object' } } },
  };
};

function routes(deps: AppDeps) {
  const base = { security, middleware: [apiKeyAuth(deps)], tags: ['Folders'] };
  return {
    byFolder: createRoute({
      ...base,
      method: 'get',
      path: '/entities/by-folder/{folderId}',
      summary: 'What a folder holds, to a depth',
      description:
        'JSON:API style entries: sub-folders (`folder-segment`) down to `depth` levels and the segments and journeys in the folder and its sub-folders above that depth. `depth` 1 (default) to 32.',
      request: {
        params: z.object({ folderId }),
        query: z.object({ depth: z.string().optional().openapi({ description: '1 to 32, default 1' }) }),
      },
      responses: { 200: json(folderListing, 'The entries'), ...errors(400, 401, 403, 404) },
    }),
    create: createRoute({
      ...base,
      method: 'post',
      path: '/entities/folders',
      summary: 'Create a sub-folder',
      request: { body: body(folderCreate, '{name, parentFolderId}') },
      responses: { 200: json(folderObject, 'The folder'), ...errors(400, 401, 403, 404, 409) },
    }),
    show: createRoute({
      ...base,
      method: 'get',
      path: '/entities/folders/{folderId}',
      summary: 'One folder',
      request: { params: z.object({ folderId }) },
      responses: { 200: json(folderObject, 'The folder'), ...errors(401, 403, 404) },
    }),
    rename: createRoute({
      ...base,
      method: 'patch',
      path: '/entities/folders/{folderId}',
      summary: 'Rename a folder',
      request: { params: z.object({ folderId }), body: body(folderRename, '{name}') },
      responses: { 200: json(folderObject, 'The folder'), ...errors(400, 401, 403, 404, 409) },
    }),
    remove: createRoute({
      ...base,
      method: 'delete',
      path: '/entities/folders/{folderId}',
      summary: 'Delete an empty sub-folder',
      description: 'Refused (409) for a root folder and for a folder that still holds folders, segments or journeys.',
      request: { params: z.object({ folderId }) },
      responses: { 200: json(z.object({ id: z.string() }), 'Deleted'), ...errors(401, 403, 404, 409) },
    }),
  };
}

async function requireFolder(deps: AppDeps, c: Context<AppEnv>, raw: string | number): Promise<FolderRow> {
  const id = parseId(raw);
  const row = id === null ? null : await folderRow(deps.storage.db, principalOf(c).accountId, id);
  if (!row) throw notFound('folder');
  return row;
}

function parseDepth(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_FOLDER_DEPTH) {
    throw badRequest(`"depth" must be a whole number from 1 to ${MAX_FOLDER_DEPTH}, not "${raw.slice(0, 20)}".`);
  }
  return n;
}

type FolderObject = z.infer<typeof folderObject>;
const wrap = (row: FolderRow): FolderObject => {
  const entry = folderEntry(row);
  return {
    data: { id: entry.id, type: 'folder-segment', attributes: entry.attributes as FolderObject['data']['attributes'] },
  };
};

/** `/entities/by-folder/:folderId` and `/entities/folders/*`: master keys or the console session. */
export function folderRoutes(deps: AppDeps) {
  const r = routes(deps);
  const { db } = deps.storage;
  return new OpenAPIHono<AppEnv>()
    .openapi(r.byFolder, async (c) => {
      const folder = await requireFolder(deps, c, c.req.valid('param').folderId);
      return c.json({ data: await listFolder(deps, folder, parseDepth(c.req.valid('query').depth)) }, 200);
    })
    .openapi(r.create, async (c) => {
      const { name, parentFolderId } = await input(c, folderCreate);
      const parent = await requireFolder(deps, c, parentFolderId);
      await requireFolderControl(db, principalOf(c), parent, 'create folders in it');
      if ((await ancestorIds(db, parent.account_id, parent.id)).length + 1 >= MAX_FOLDER_DEPTH) {
        throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} levels deep; create this one higher up.`);
      }
      const row = await insertFolder(
        db,
        { account_id: parent.account_id, parent_segment_id: parent.parent_segment_id, parent_id: parent.id, name },
        deps.clock.now().getTime(),
      );
      return c.json(wrap(row), 200);
    })
    .openapi(r.show, async (c) => c.json(wrap(await requireFolder(deps, c, c.req.valid('param').folderId)), 200))
    .openapi(r.rename, async (c) => {
      const folder = await requireFolder(deps, c, c.req.valid('param').folderId);
      const { name } = await input(c, folderRename);
      await requireFolderControl(db, principalOf(c), folder, 'rename it');
      if (folder.parent_id === null) {
        throw conflict('A root folder is named after its parent segment; rename the parent segment instead.');
      }
      return c.json(wrap(await renameFolderRow(db, folder, name, deps.clock.now().getTime())), 200);
    })
    .openapi(r.remove, async (c) => {
      const folder = await requireFolder(deps, c, c.req.valid('param').folderId);
      await requireFolderControl(db, principalOf(c), folder, 'delete it');
      if (folder.parent_id === null) {
        throw conflict('A root folder goes with its parent segment; delete the parent segment instead.');
      }
      const inside = (await descendants(db, folder.account_id, folder.id, 1)).length;
      const items = (await entriesIn(deps, folder.account_id, [folder.id])).length;
      if (inside + items > 0) {
        throw conflict(`The folder still holds ${inside} folder(s) and ${items} item(s); move or delete them first.`);
      }
      // Only empty folders are deleted, but a sub-folder's grants would be orphaned too: take them all.
      const below = (await descendants(db, folder.account_id, folder.id, MAX_FOLDER_DEPTH * 2)).map((f) => f.id);
      await transaction(deps.storage, async (tx) => {
        await deleteGrantsOn(tx, folder.account_id, [folder.id, ...below]);
        await deleteFolderRow(tx, folder);
      });
      return c.json({ id: String(folder.id) }, 200);
    });
}
