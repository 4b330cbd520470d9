export * from './console';
export * from './errors';
