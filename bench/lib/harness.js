'use strict';
/**
 * Shared pieces of the benchmarks: command-line options, a private redis-server, service
 * processes started the way production starts them (`scripts/serve.js`), a local page server, and
 * figures.
 */
const { spawn } = require('node:child_process');
const http = require('node:http');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const swc = require('@swc/core');

const ROOT = path.resolve(__dirname, '../..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up`);
}

async function startRedis() {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  await waitFor(
    () =>
      new Promise((resolve) => {
        const socket = net.connect({ port, host: '127.0.0.1' }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      }),
    10_000,
    'redis-server',
  );
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

/**
 * One service process as production starts it. BENCH_NODE_ARGS adds node flags to it, to profile a
 * service under a bench: BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' (node refuses
 * --cpu-prof in NODE_OPTIONS).
 */
function startService(env, { logFd } = {}) {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), path.join(ROOT, 'scripts/serve.js')],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', logFd ?? 'inherit', 'inherit'],
    },
  );
  return {
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Numeric `--name value` options; `defaults` names every option (an undefined default leaves the
 * option undefined when not given). Unknown options are refused.
 */
function numericOptions(defaults) {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => [
      name,
      value === undefined ? { type: 'string' } : { type: 'string', default: String(value) },
    ]),
  );
  const { values } = parseArgs({ options });
  return Object.fromEntries(Object.keys(defaults).map((name) => [name, values[name] === undefined ? undefined : Number(values[name])]));
}

/**
 * The service as a user runs it, split in processes: a private redis-server, a gateway and one
 * worker (`role`, with `workerEnv` on top) sharing a temporary DATA_DIR. Resolves once the gateway answers /v1/health;
 * `stop` ends the processes and removes the directory. Their logs (LOG_LEVEL warn unless `env`
 * says otherwise) go to this process's stdout, or to `logFd` when given.
 */
async function startStack(role, env = {}, workerEnv = {}, { logFd } = {}) {
  const redis = await startRedis();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-bench-data-'));
  const shared = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'bench',
    DATA_DIR: dataDir,
    HTTP_ADDR: `127.0.0.1:${port}`,
    OPS_HTTP_ADDR: '127.0.0.1:0',
    ...env,
  };
  const gateway = startService({ ...shared, ROLE: 'gateway' }, { logFd });
  const worker = startService({ ...shared, ROLE: role, ...workerEnv }, { logFd });
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await gateway.stop();
    await worker.stop();
    redis.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await fetch(`${origin}/v1/health`)).ok, 20_000, 'gateway');
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, gateway, worker, redisUrl: redis.url, redisPid: redis.pid, prefix: shared.QUEUE_PREFIX, stop };
}

/** Resident set size of one process, in MiB, from /proc. */
function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/** RSS of a process and all its descendants (a worker and its Chromium), in MiB. */
function treeRssMiB(pid) {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const tree = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [child, parent] of parents) {
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const member of tree) {
    try {
      total += rssMiB(member) || 0;
    } catch {
      // gone
    }
  }
  return total;
}

/**
 * A local site: `pages` is one HTML document served at every path, or a map of paths to
 * `{ type, body }` (anything else is a 404).
 */
function startPageServer(pages) {
  const routes = typeof pages === 'string' ? undefined : pages;
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const route = routes ? routes[new URL(req.url, 'http://x').pathname] : { type: 'text/html; charset=utf-8', body: pages };
      if (!route) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(route.body) });
      res.end(route.body);
    });
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }));
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `task` `total` times with `concurrency` in flight; returns per-task ms and wall time. */
async function runPool(total, concurrency, task) {
  const durations = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const t0 = performance.now();
        await task(index);
        durations.push(performance.now() - t0);
      }
    }),
  );
  return { durations, wallMs: performance.now() - started };
}

/**
 * A lean JSON client: node:http with keep-alive. A benchmark's client shares the machine with what
 * it measures, so it should cost as little as it can: undici's fetch took ~4.1 ms of CPU per
 * screenshot POST + GET pair in the benchmark process, this ~2.7 (three interleaved runs of 100).
 * `request` answers { status, body } with the body parsed as JSON.
 */
function jsonClient() {
  const agent = new http.Agent({ keepAlive: true });
  const request = (method, url, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
      const req = http.request(url, { method, agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { request, close: () => agent.destroy() };
}

/** The test kit's scripted OpenAI-compatible model (TypeScript), compiled once into a temp file. */
function loadScriptedModel() {
  const source = path.join(ROOT, 'packages/testkit/src/scripted-openai.ts');
  const { code } = swc.transformFileSync(source, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const compiled = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-bench-model-')), 'scripted-openai.js');
  fs.writeFileSync(compiled, code);
  return require(compiled);
}

module.exports = {
  ROOT,
  freePort,
  waitFor,
  numericOptions,
  startRedis,
  startService,
  startStack,
  rssMiB,
  treeRssMiB,
  startPageServer,
  percentile,
  runPool,
  jsonClient,
  loadScriptedModel,
};
