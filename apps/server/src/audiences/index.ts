/**
 * What other features use of audiences (parent segments, segments and their profiles): lookups by id (folders
 * are the folders feature's), the profiles of a segment or rule, and the hooks features register (folder
 * entries, segment users, journey variant members). See lookup.ts; everything here is async and works on
 * both backends.
 */

export { membershipInputs } from './inputs';
export {
  findParentSegment,
  findSegment,
  missingSegments,
  parentSegmentSizes,
  profileRows,
  type SegmentUsageProvider,
  segmentFingerprint,
  segmentFolderEntries,
  segmentProfileKeys,
  type VariantMembersProvider,
} from './lookup';
