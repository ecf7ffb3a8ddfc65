export * from './redis';
export * from './queues';
export * from './job-view';
export * from './job-failure';
