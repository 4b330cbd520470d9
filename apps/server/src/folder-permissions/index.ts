/** Folder permissions (Full Control / View per user per folder): what other features call. */
export { creatorGetsFullControl } from './creator';
export { folderPermissionRoutes } from './routes';
