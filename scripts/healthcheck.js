#!/usr/bin/env node
/**
 * Container health check (the Dockerfiles' HEALTHCHECK): asks the running service, at the address
 * its config gives, whether it is healthy. ROLE=gateway|all: GET /v1/health on HTTP_ADDR;
 * a worker role: GET /readyz on OPS_HTTP_ADDR. Exit 0 healthy, 1 not. Requires a build.
 */
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function target(config) {
  const worker = config.role === 'screenshot-worker' || config.role === 'parse-worker';
  const address = worker ? config.opsHttp : config.http;
  if (!address) return undefined;
  const everywhere = ['', '0.0.0.0', '::'].includes(address.host);
  const host = everywhere ? '127.0.0.1' : address.host.includes(':') ? `[${address.host}]` : address.host;
  return `http://${host}:${address.port}${worker ? '/readyz' : '/v1/health'}`;
}

async function main() {
  const { loadConfig } = require(path.join(root, 'packages/config/dist/index.js'));
  const url = target(loadConfig(process.env));
  if (!url) {
    console.log('healthcheck: OPS_HTTP_ADDR is off; nothing to ask');
    return 0;
  }
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(4_000) });
    if (response.ok) return 0;
    console.log(`healthcheck: ${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  } catch (error) {
    console.log(`healthcheck: ${url} unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.log(`healthcheck: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
