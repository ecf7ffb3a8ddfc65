export * from './redis';
export * from './queues';
export * from './job-view';
export * from './job-failure';
export * from './watch/watch-keys';
export * from './watch/watch-store';
export * from './watch/watch-schedule';
export * from './webhook-secrets';
