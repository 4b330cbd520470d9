import type { FolderEntry } from '@svc/contracts';
import type { AppDeps } from '../platform/context';
import { isoTime } from '../platform/time';
import { descendants, type FolderRow } from './store';

/**
 * What `GET /entities/by-folder/:folderId` lists besides folders comes from providers of other features that
 * the composition root hands to each app (segments from audiences, journeys from journeys), so this feature
 * imports none of them.
 * A provider returns the entries whose parent folder is one of `folderIds` (all of the account); each
 * entry's `relationships.parentFolder.data.id` names its folder.
 */
export type FolderEntriesProvider = (accountId: number, folderIds: number[]) => FolderEntry[] | Promise<FolderEntry[]>;

declare module '../platform/context' {
  interface Services {
    /** The providers of folder entries by entry type, e.g. `journey` (wired by compose.ts). */
    folderEntries: Map<string, FolderEntriesProvider>;
  }
}

/** Adds (or replaces) the provider of one entry type, e.g. `journey`, for this app. */
export function registerFolderEntries(deps: AppDeps, kind: string, provider: FolderEntriesProvider): void {
  if (!deps.services) throw new Error('Folder entries belong to an app: these deps have no services.');
  deps.services.folderEntries.set(kind, provider);
}

/** Entries of every registered kind inside the given folders. */
export async function entriesIn(deps: AppDeps, accountId: number, folderIds: number[]): Promise<FolderEntry[]> {
  if (folderIds.length === 0) return [];
  const out: FolderEntry[] = [];
  for (const provider of deps.services?.folderEntries.values() ?? [])
    out.push(...(await provider(accountId, folderIds)));
  return out;
}

export const folderRef = (id: number | string) => ({ data: { id: String(id), type: 'folder-segment' as const } });

/** A folder as a JSON:API entry of type `folder-segment`. */
export function folderEntry(folder: FolderRow): FolderEntry {
  return {
    id: String(folder.id),
    type: 'folder-segment',
    attributes: {
      name: folder.name,
      audienceId: String(folder.parent_segment_id),
      parentFolderId: folder.parent_id === null ? null : String(folder.parent_id),
      createdAt: isoTime(new Date(folder.created_at)),
      updatedAt: isoTime(new Date(folder.updated_at)),
    },
    relationships: { parentFolder: folder.parent_id === null ? { data: null } : folderRef(folder.parent_id) },
  } as FolderEntry;
}

/**
 * What a folder holds down to `depth` levels: sub-folders of levels 1…depth, and the entries of the folder
 * and of its sub-folders of levels 1…depth−1 (depth 1 = the folder's own content).
 */
export async function listFolder(deps: AppDeps, folder: FolderRow, depth: number): Promise<FolderEntry[]> {
  const below = await descendants(deps.storage.db, folder.account_id, folder.id, depth);
  const holders = [folder.id, ...below.filter((f) => f.level < depth).map((f) => f.id)];
  return [...below.map(folderEntry), ...(await entriesIn(deps, folder.account_id, holders))];
}
