export { startGateway, type RunningGateway } from './main';
export { createApp } from './app';
export type { GatewayDeps } from './deps';
// What other trees build a gateway from: the test kit's in-process gateway, the route fuzzer.
export { buildGatewayDeps, type BuiltGatewayDeps } from './deps';
export { createAuthGuard, type AuthGuardOptions } from './auth/guard';
export { ApiKeyStore, type IssuedKey } from './auth/key-store';
export { allRoutes, API_ROUTES } from './routes';
export type { AnyRoute } from './http/route';
