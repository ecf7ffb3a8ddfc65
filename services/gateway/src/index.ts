export { startGateway, type RunningGateway } from './main';
export { createApp } from './app';
export type { GatewayDeps } from './deps';
