export * from './bulk';
export * from './console';
export * from './data';
export * from './errors';
export * from './jobs';
export * from './sso';
