export { ApiKeysPage } from './ApiKeysPage';
export { apiKeyKeys, apiKeysQueryOptions } from './api';
