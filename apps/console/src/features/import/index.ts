export { ImportDropZone } from './ImportDropZone';
export { importUrl } from './importUrl';
