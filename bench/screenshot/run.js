#!/usr/bin/env node
'use strict';
/**
 * Screenshot benchmark. In one process tree on this machine it runs:
 *  1. the service: gateway + screenshot-worker processes (fs driver, private Redis), jobs sent as
 *     POST then GET ?wait=, and
 *  2. a bare puppeteer-core loop: one warm Chromium, a fresh context per shot,
 * on the same local page, and prints:
 *  - latency: p50 of one shot at a time, service against bare (target: within +50 ms);
 *  - throughput at saturation: the bare loop with CONCURRENCY pages at once against the service
 *    whose worker also renders CONCURRENCY pages at once (SCREENSHOT_CONCURRENCY), with enough
 *    jobs queued (--inflight, default 2 x CONCURRENCY) that it never waits for a client's next
 *    request: a queued service is measured by how fast it drains work (target: >= 0.95x);
 *  - memory: the worker's RSS once warm (after --warmup jobs, which include one Chromium recycle
 *    at BROWSER_RECYCLE_AFTER) and after --soak more, sampled every 100 (target: growth < 10%).
 *    The first jobs grow V8's heap to its working size; that is start-up, not a leak, so it is
 *    printed but not judged.
 *
 * Usage: node bench/screenshot/run.js [--shots 60] [--concurrency 2] [--inflight 4]
 *                                     [--warmup 250] [--soak 500]
 * Needs a build (npm run setup).
 */
const path = require('node:path');
const os = require('node:os');
const fs = require('node:fs');
const { ROOT, numericOptions, startStack, rssMiB, treeRssMiB, startPageServer, percentile, runPool } = require('../lib/harness');

const args = numericOptions({ shots: 60, soak: 500, concurrency: 2, inflight: undefined, warmup: 250 });
const { shots: SHOTS, soak: SOAK, concurrency: CONCURRENCY, warmup: WARMUP } = args;
const INFLIGHT = args.inflight ?? 2 * CONCURRENCY;
const RECYCLE_AFTER = 200;
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
  const browser = await puppeteer.launch({
    executablePath: CHROME,
    headless: true,
    args: [...CHROMIUM_ARGS, `--user-data-dir=${userDataDir}`],
  });
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
  console.log(
    `${label.padEnd(28)} throughput ${throughput.toFixed(2)} shots/s   p50 ${p50.toFixed(0)} ms   p95 ${percentile(run.durations, 95).toFixed(0)} ms`,
  );
  return { throughput, p50 };
}

/** Worker RSS once warm, then every 100 jobs of the soak; judged warm against the end. */
async function soak(origin, pageUrl, workerPid, done) {
  const early = rssMiB(workerPid);
  if (WARMUP > done) await serviceRun(origin, pageUrl, WARMUP - done, INFLIGHT);
  const warm = rssMiB(workerPid);
  const treeWarm = treeRssMiB(workerPid);
  console.log(`\nworker RSS after ${done} jobs ${early.toFixed(1)} MiB, warm after ${Math.max(WARMUP, done)} jobs ${warm.toFixed(1)} MiB`);
  const samples = [];
  const started = performance.now();
  for (let run = 0; run < SOAK; run += 100) {
    await serviceRun(origin, pageUrl, Math.min(100, SOAK - run), INFLIGHT);
    samples.push(rssMiB(workerPid));
  }
  const rate = SOAK / ((performance.now() - started) / 1000);
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssMiB(workerPid);
  const growth = ((after - warm) / warm) * 100;
  console.log(`worker RSS every 100 jobs: ${samples.map((v) => v.toFixed(1)).join(', ')} MiB   [${rate.toFixed(2)} shots/s]`);
  console.log(
    `worker RSS warm ${warm.toFixed(1)} MiB, after ${SOAK} more jobs ${after.toFixed(1)} MiB: ` +
      `${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%   (target < 10%) ${growth < 10 ? 'MET' : 'MISSED'}`,
  );
  console.log(
    `worker + Chromium tree RSS warm ${treeWarm.toFixed(1)} MiB, after ${treeRssMiB(workerPid).toFixed(1)} MiB ` +
      `(Chromium is recycled every ${RECYCLE_AFTER} jobs)`,
  );
}

async function main() {
  const page = await startPageServer(PAGE);
  const stack = await startStack('screenshot-worker', {
    CHROME_PATH: CHROME,
    SCREENSHOT_CONCURRENCY: String(CONCURRENCY),
    BROWSER_RECYCLE_AFTER: String(RECYCLE_AFTER),
  });
  const { origin, worker } = stack;
  try {
    console.log(`Screenshot benchmark: ${SHOTS} shots per measurement, concurrency ${CONCURRENCY}, ${os.cpus().length} cores\n`);
    await serviceRun(origin, page.url, 4, 1); // warm-up: browser launch, first navigation

    const serviceLatency = figures('service, sequential', await serviceRun(origin, page.url, SHOTS, 1), SHOTS);
    const bareLatency = figures('bare loop, sequential', await bareRun(page.url, SHOTS, 1), SHOTS);
    const serviceThroughput = figures(`service, ${INFLIGHT} queued`, await serviceRun(origin, page.url, SHOTS, INFLIGHT), SHOTS);
    const bareThroughput = figures(`bare loop, ${CONCURRENCY} in flight`, await bareRun(page.url, SHOTS, CONCURRENCY), SHOTS);

    console.log('');
    const ratio = serviceThroughput.throughput / bareThroughput.throughput;
    const delta = serviceLatency.p50 - bareLatency.p50;
    console.log(`throughput ratio service/bare: ${ratio.toFixed(3)}x   (target >= 0.95x) ${ratio >= 0.95 ? 'MET' : 'MISSED'}`);
    console.log(`p50 latency service - bare:    ${delta.toFixed(0)} ms   (target <= 50 ms) ${delta <= 50 ? 'MET' : 'MISSED'}`);
    if (SOAK > 0) await soak(origin, page.url, worker.pid, 4 + 2 * SHOTS);
  } finally {
    await stack.stop();
    page.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
