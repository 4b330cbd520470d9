/**
 * The folder tree as other features use it: audiences keep segments in folders, journeys and folder
 * permissions look folders up. Rows and lookups, the entries each feature registers, the Full Control check.
 */
export { requireFolderControl } from './access';
export { entriesIn, folderRef } from './entries';
export { type FolderInfo, findFolder } from './lookup';
export {
  deleteParentSegmentFolders,
  descendants,
  type FolderRow,
  folderRow,
  insertFolder,
  renameFolderRow,
} from './store';
