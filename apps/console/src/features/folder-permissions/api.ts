import { type FolderPermission, folderPermissions } from '@svc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { resourceKeys } from '../../lib/resources';

/** A user's own grant on a folder, or `none` (the user inherits from above, or has the account default). */
export type GrantChoice = FolderPermission | 'none';

/** Replaces a folder's own grants (administrators): `PUT /entities/folders/:folderId/permissions`. */
export function useSaveFolderPermissions(folderId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (choices: ReadonlyMap<number, GrantChoice>) =>
      api.put(`/entities/folders/${encodeURIComponent(folderId)}/permissions`, folderPermissions, {
        permissions: [...choices]
          .filter((entry): entry is [number, FolderPermission] => entry[1] !== 'none')
          .map(([userId, permission]) => ({ userId, permission })),
      }),
    // Sub-folders inherit the grants, so every folder's answer may have changed.
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.folderPermissions.all }),
  });
}
