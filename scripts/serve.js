#!/usr/bin/env node
/**
 * Serves Sitelens by ROLE (all | gateway | screenshot-worker | parse-worker) and MODE, with no
 * set-up step: Dockerfiles, Kubernetes and process managers run this (`npm run serve`).
 * Requires a build (`npm run setup`).
 */
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const load = (name) => require(path.join(root, name, 'dist/index.js'));

async function main() {
  const { loadConfig, ConfigError } = load('packages/config');
  const { createLogger, createMetrics } = load('packages/telemetry');
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, service: config.role === 'all' ? 'sitelens' : config.role });
  const metrics = createMetrics({ service: config.role === 'all' ? 'sitelens' : config.role });
  const roles = config.role === 'all' ? ['screenshot-worker', 'parse-worker', 'gateway'] : [config.role];
  const running = [];
  const starters = {
    gateway: () => load('services/gateway').startGateway(config, logger.child({ role: 'gateway' }), metrics),
    'screenshot-worker': () =>
      load('services/screenshot-worker').startScreenshotWorker(config, logger.child({ role: 'screenshot-worker' }), metrics),
    'parse-worker': () => load('services/parse-worker').startParseWorker(config, logger.child({ role: 'parse-worker' }), metrics),
  };
  for (const role of roles) running.push(await starters[role]());

  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    deadline.unref();
    // Gateway first (stop taking requests), then workers (finish or hand back their jobs).
    for (const service of running.reverse()) await service.close().catch((error) => logger.error({ err: error }, 'close failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
