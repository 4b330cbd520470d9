import type { FolderPermission, FolderPermissions } from '@svc/contracts';

export const PERMISSION_LABEL: Record<FolderPermission, string> = { full_control: 'Full Control', view: 'View' };

/**
 * Why the signed-in user cannot do `action` in a folder, or null when they can (Full Control) or while
 * their permission is not known yet. `action` completes "so you cannot …", e.g. "save segments here".
 */
export function folderBlocker(
  permission: FolderPermission | undefined,
  folderName: string,
  action: string,
): string | null {
  if (permission !== 'view') return null;
  return `You have View permission on “${folderName}”, so you cannot ${action}. Ask an administrator for Full Control.`;
}

/** What one user has on the folder, and where it comes from, in words. */
export function accessOf(
  user: { id: number; administrator: boolean },
  current: FolderPermissions,
  folderName: (id: string) => string,
): { permission: FolderPermission; source: string } {
  if (user.administrator) return { permission: 'full_control', source: 'administrator' };
  const grant = current.grants.find((g) => Number(g.userId) === user.id);
  if (!grant) return { permission: current.defaultPermission, source: 'account default' };
  if (!grant.inherited) return { permission: grant.permission, source: 'granted here' };
  return { permission: grant.permission, source: `inherited from “${folderName(grant.folderId)}”` };
}
