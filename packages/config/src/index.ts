export * from './config';
export * from './duration';
export * from './http-addr';
export * from './api-keys';
export * from './egress-allow';
export * from './llm';
export * from './machine';
