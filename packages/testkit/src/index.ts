/**
 * What tests share: the servers the global setup starts, env helpers, fixture sites, process
 * helpers. Light on purpose (node built-ins only): the gateway helpers and the scripted model,
 * which load a service or a package, are subpaths (`@sitelens/testkit/test-gateway`,
 * `@sitelens/testkit/hosted`, `@sitelens/testkit/scripted-openai`). Tests only: no production
 * package depends on this one.
 */
export * from './env';
export * from './paths';
export * from './fixture-site';
export * from './blog-site';
export * from './egress-attack';
export * from './content-workers';
export * from './processes';
export * from './proc';
export * from './prometheus';
export * from './redis-server';
