import { segmentFolderEntries } from './audiences';
import { GroupCommitter } from './ingest/groupCommit';
import { variantRuleMembers, versionHandover } from './journey-engine';
import { journeyFolderEntries, journeySegmentUsage } from './journeys';
import { keyMemory } from './platform/apiKeys';
import type { AppDeps, Services } from './platform/context';
import { smtpMailer } from './platform/mail';
import type { BackgroundWork } from './platform/work';

/**
 * The services found through `deps.services`, and the hooks between features: the same in the app (with its
 * worker pool) and in a worker thread (`work` null), so a task sees what a request sees.
 */
export function nodeServices(deps: AppDeps, work: BackgroundWork | null): Services {
  return {
    work,
    startup: [],
    badKeys: new Map(),
    keys: keyMemory(),
    mail: deps.config.smtp ? smtpMailer(deps.config.smtp) : null,
    groupCommit: new GroupCommitter(deps),
    catalogCache: new Map(),
    knownSchemas: new Set(),
    // What `GET /entities/by-folder/:id` lists besides folders, by entry type.
    folderEntries: new Map([
      ['segment', segmentFolderEntries(deps)],
      ['journey', journeyFolderEntries(deps)],
    ]),
    // Who else names a segment (a segment in use is not deleted).
    segmentUsage: [journeySegmentUsage(deps)],
    // Rule 7: segment rules count the profiles of a journey's A/B variant.
    variantMembers: variantRuleMembers(deps),
    // Launching a journey version moves the engine's profile states.
    versionHandover,
    // What each journey's last run on this node saw, so the next run moves only who may move.
    keptRuns: new Map(),
  };
}

/** A worker thread's services (workers/worker.ts): the same hooks, no pool. */
export function attachWorkerServices(deps: AppDeps): void {
  deps.services = nodeServices(deps, null);
}
