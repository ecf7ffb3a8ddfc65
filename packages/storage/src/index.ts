export * from './blob-store';
export * from './fs-store';
export * from './s3-store';
export * from './create-store';
export * from './job-results';
export * from './retention';
