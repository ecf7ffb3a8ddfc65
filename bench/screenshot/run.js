#!/usr/bin/env node
'use strict';
/**
 * Screenshot benchmark. In one process tree on this machine it runs:
 *  1. the service: gateway + screenshot-worker processes (fs driver, private Redis), jobs sent as
 *     POST then GET ?wait=, and
 *  2. a bare puppeteer-core loop: one warm Chromium, a fresh context per shot,
 * on the same local page, and prints throughput and p50 latency of both and their ratio, then the
 * worker's RSS before and after a long run. Targets: throughput >= 0.95x, p50 within +50 ms,
 * RSS growth < 10%.
 *
 * Usage: node bench/screenshot/run.js [--shots 60] [--soak 500] [--concurrency 2]
 * Needs a build (npm run setup).
 */
const path = require('node:path');
const os = require('node:os');
const fs = require('node:fs');
const { ROOT, freePort, waitFor, startRedis, startService, rssMiB, treeRssMiB, startPageServer, percentile, runPool } = require('../lib/harness');

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const SHOTS = Number(args.shots ?? 60);
const SOAK = Number(args.soak ?? 500);
const CONCURRENCY = Number(args.concurrency ?? 2);
const CHROME = process.env.CHROME_PATH || '/usr/bin/chromium';

const PAGE = `<!doctype html><html><head><title>bench</title><style>
body{font-family:sans-serif;margin:0;background:#f4f6fb} .card{margin:24px;padding:24px;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
</style></head><body>${Array.from({ length: 12 }, (_, i) => `<div class="card"><h2>Card ${i}</h2><p>${'Lorem ipsum dolor sit amet. '.repeat(12)}</p></div>`).join('')}</body></html>`;

async function serviceRun(origin, pageUrl, total, concurrency) {
  return runPool(total, concurrency, async () => {
    const created = await fetch(`${origin}/v1/screenshots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: pageUrl, device: 'desktop', format: 'png' }),
    });
    const { job_id: jobId } = await created.json();
    const done = await (await fetch(`${origin}/v1/screenshots?job_id=${jobId}&wait=60`)).json();
    if (done.status !== 'completed') throw new Error(`job ${jobId} ended ${JSON.stringify(done)}`);
  });
}

async function bareRun(pageUrl, total, concurrency) {
  const puppeteer = require(require.resolve('puppeteer-core', { paths: [path.join(ROOT, 'packages/browser')] }));
  const { CHROMIUM_ARGS } = require(path.join(ROOT, 'packages/browser/dist/chromium.js'));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-bench-chrome-'));
  const browser = await puppeteer.launch({ executablePath: CHROME, headless: true, args: [...CHROMIUM_ARGS, `--user-data-dir=${userDataDir}`] });
  try {
    const shot = async () => {
      const context = await browser.createBrowserContext();
      try {
        const page = await context.newPage();
        await page.setViewport({ width: 1920, height: 1080, deviceScaleFactor: 1 });
        await page.goto(pageUrl, { waitUntil: 'load' });
        await page.screenshot({ type: 'png' });
      } finally {
        await context.close();
      }
    };
    await runPool(4, 1, shot); // warm-up, as the service's warm-up below
    return await runPool(total, concurrency, shot);
  } finally {
    await browser.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

function figures(label, run, total) {
  const throughput = total / (run.wallMs / 1000);
  const p50 = percentile(run.durations, 50);
  console.log(`${label.padEnd(28)} throughput ${throughput.toFixed(2)} shots/s   p50 ${p50.toFixed(0)} ms   p95 ${percentile(run.durations, 95).toFixed(0)} ms`);
  return { throughput, p50 };
}

async function main() {
  const page = await startPageServer(PAGE);
  const redis = await startRedis();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitelens-bench-data-'));
  const env = {
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'bench',
    DATA_DIR: dataDir,
    CHROME_PATH: CHROME,
    SCREENSHOT_CONCURRENCY: String(CONCURRENCY),
    HTTP_ADDR: `127.0.0.1:${port}`,
    WORKER_HTTP_ADDR: '127.0.0.1:0',
  };
  const gateway = startService({ ...env, ROLE: 'gateway' });
  const worker = startService({ ...env, ROLE: 'screenshot-worker' });
  try {
    await waitFor(async () => (await fetch(`${origin}/v1/health`)).ok, 20_000, 'gateway');
    console.log(`Screenshot benchmark: ${SHOTS} shots per measurement, concurrency ${CONCURRENCY}, ${os.cpus().length} cores\n`);
    await serviceRun(origin, page.url, 4, 1); // warm-up: browser launch, first navigation

    const serviceLatency = figures('service, sequential', await serviceRun(origin, page.url, SHOTS, 1), SHOTS);
    const bareLatency = figures('bare loop, sequential', await bareRun(page.url, SHOTS, 1), SHOTS);
    const serviceThroughput = figures(`service, ${CONCURRENCY} in flight`, await serviceRun(origin, page.url, SHOTS, CONCURRENCY), SHOTS);
    const bareThroughput = figures(`bare loop, ${CONCURRENCY} in flight`, await bareRun(page.url, SHOTS, CONCURRENCY), SHOTS);

    console.log('');
    const ratio = serviceThroughput.throughput / bareThroughput.throughput;
    const delta = serviceLatency.p50 - bareLatency.p50;
    console.log(`throughput ratio service/bare: ${ratio.toFixed(3)}x   (target >= 0.95x) ${ratio >= 0.95 ? 'MET' : 'MISSED'}`);
    console.log(`p50 latency service - bare:    ${delta.toFixed(0)} ms   (target <= 50 ms) ${delta <= 50 ? 'MET' : 'MISSED'}`);

    if (SOAK > 0) {
      const before = rssMiB(worker.pid);
      const treeBefore = treeRssMiB(worker.pid);
      const soak = await serviceRun(origin, page.url, SOAK, CONCURRENCY);
      await new Promise((r) => setTimeout(r, 2000));
      const after = rssMiB(worker.pid);
      const treeAfter = treeRssMiB(worker.pid);
      const growth = ((after - before) / before) * 100;
      console.log(`worker RSS before ${before.toFixed(1)} MiB, after ${SOAK} jobs ${after.toFixed(1)} MiB: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%   (target < 10%) ${growth < 10 ? 'MET' : 'MISSED'}   [${(SOAK / (soak.wallMs / 1000)).toFixed(2)} shots/s]`);
      console.log(`worker + Chromium tree RSS before ${treeBefore.toFixed(1)} MiB, after ${treeAfter.toFixed(1)} MiB (Chromium is recycled every BROWSER_RECYCLE_AFTER jobs)`);
    }
  } finally {
    await gateway.stop();
    await worker.stop();
    redis.stop();
    page.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
