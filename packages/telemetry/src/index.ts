export * from './logger';
export * from './metrics';
export * from './ops-server';
