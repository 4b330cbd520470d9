export { ImportDropZone, type ImportDropZoneProps } from './ImportDropZone';
export { IMPORT_PATH, importUrl } from './importUrl';
export type { ImportTarget } from './pendingFiles';
