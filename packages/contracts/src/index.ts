export * from './errors';
export * from './devices';
export * from './fields';
export * from './screenshot';
export * from './queues';
export * from './plans';
