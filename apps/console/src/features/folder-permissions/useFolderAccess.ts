import type { FolderPermission } from '@svc/contracts';
import { useQueries } from '@tanstack/react-query';
import { folderPermissionsQueryOptions } from '../../lib/resources';

/** The signed-in user's permission on each of the folders (undefined while it loads). */
export function useFolderAccess(folderIds: readonly string[]): (folderId: string) => FolderPermission | undefined {
  const answers = useQueries({ queries: folderIds.map((id) => folderPermissionsQueryOptions(id)) });
  return (folderId) => answers[folderIds.indexOf(folderId)]?.data?.callerPermission;
}
