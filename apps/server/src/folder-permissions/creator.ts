import { about, auditAction } from '../audit';
import type { Principal } from '../platform/auth';
import type { AppDeps } from '../platform/context';
import { transaction } from '../platform/storage';
import { grantCreatorFullControl } from './permissions';

/** A new parent segment as the grant needs it: its id, its name and its root folder. */
export interface CreatedParentSegment {
  id: number | string;
  name: string;
  root_folder_id: number | string;
}

/**
 * Whoever creates a parent segment gets Full Control on its root folder (issue 20), recorded in the audit
 * log as a permission change. The audiences feature calls this once the parent segment exists.
 * Administrators have Full Control everywhere already, so no grant is stored for them.
 */
export async function creatorGetsFullControl(
  deps: AppDeps,
  principal: Principal,
  parent: CreatedParentSegment,
): Promise<void> {
  if (principal.administrator) return;
  const folderId = String(parent.root_folder_id);
  await transaction(deps.storage, async (tx) => {
    if (!(await grantCreatorFullControl(tx, principal, folderId, deps.clock.now().getTime()))) return;
    const after = [{ user_id: principal.userId, email: principal.email, permission: 'full_control' }];
    const details = { parent_segment_id: String(parent.id), reason: 'creator', after };
    await auditAction(
      deps,
      principal,
      'folder.permissions_change',
      about('folder', folderId, parent.name, details),
      tx,
    );
  });
}
