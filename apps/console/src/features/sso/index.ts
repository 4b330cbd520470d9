export { SsoSettingsPage } from './SsoSettingsPage';
