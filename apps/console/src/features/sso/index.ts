export { ssoKeys, ssoSettingQueryOptions } from './api';
export { SsoSettingsPage } from './SsoSettingsPage';
