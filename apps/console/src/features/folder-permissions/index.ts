export { accessOf, folderBlocker, PERMISSION_LABEL } from './access';
export { FolderAccessNote } from './FolderAccessNote';
export { FolderPermissionsModal } from './FolderPermissionsModal';
export { useFolderAccess } from './useFolderAccess';
