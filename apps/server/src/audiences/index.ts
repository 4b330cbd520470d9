/**
 * What other features use of audiences (parent segments, segments and their profiles): lookups by id, the
 * profiles of a segment or rule, and the hooks features register (folder entries, segment users, journey
 * variant members). See lookup.ts; everything here is async and works on both backends.
 */
export {
  type FolderEntriesProvider,
  type FolderInfo,
  findFolder,
  findParentSegment,
  findSegment,
  missingSegments,
  type ParentSegmentInfo,
  type ProfileView,
  profileRows,
  registerFolderEntries,
  registerSegmentUsage,
  registerVariantMembers,
  type SegmentInfo,
  type SegmentUsageProvider,
  segmentProfileKeys,
  type VariantMembersProvider,
} from './lookup';
