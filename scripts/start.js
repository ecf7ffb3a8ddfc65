#!/usr/bin/env node
/**
 * The one-command local instance (`npm start`, after set-up): ROLE=all, MODE=local unless set.
 * When nothing answers at REDIS_URL and it points at this machine, a private redis-server is
 * started as a child (data in DATA_DIR/redis) and stopped with the service.
 */
'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const env = { ...process.env, ROLE: process.env.ROLE || 'all', MODE: process.env.MODE || 'local' };
const redisUrl = new URL(env.REDIS_URL || 'redis://127.0.0.1:6379');
const dataDir = path.resolve(root, env.DATA_DIR || '.data');
const log = (message) => console.log(`[start] ${message}`);
let stopping = false;

function reachable(host, port, timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(host, port, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await reachable(host, port, 300)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function main() {
  const host = redisUrl.hostname || '127.0.0.1';
  const port = Number(redisUrl.port || 6379);
  let redis;
  if (!(await reachable(host, port))) {
    if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
      console.error(`[start] Redis is not reachable at ${redisUrl.host} (REDIS_URL) and is not local; start it or fix REDIS_URL.`);
      process.exit(1);
    }
    const dir = path.join(dataDir, 'redis');
    fs.mkdirSync(dir, { recursive: true });
    log(`no Redis at ${redisUrl.host}; starting a private redis-server (data in ${dir})`);
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--maxmemory-policy', 'noeviction'],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    redis.on('exit', (code) => {
      if (!stopping) {
        console.error(`[start] redis-server exited (${code})`);
        process.exit(1);
      }
    });
    if (!(await waitFor('127.0.0.1', port, 10_000))) {
      console.error('[start] redis-server did not start');
      process.exit(1);
    }
  }

  const server = spawn(process.execPath, [path.join(__dirname, 'serve.js')], { env, stdio: 'inherit' });
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    server.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  server.on('exit', (code) => {
    stopping = true;
    if (redis) redis.kill('SIGTERM');
    process.exit(code ?? 0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
