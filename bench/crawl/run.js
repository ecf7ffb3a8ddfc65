#!/usr/bin/env node
'use strict';
/**
 * Crawl and scrape benchmark. On one machine, against a generated 200-page local site served by
 * a child process, it runs:
 *  1. the service (gateway + parse-worker processes, private Redis): POST /v1/crawl, then the job
 *     lookup polled until completed, timed from the POST to the completed answer; and
 *  2. @crawlee/cheerio's CheerioCrawler in this process, whose request handler does the same
 *     per-page work with the same code (main content + markdown via @sitelens/web's extractor,
 *     same-host links enqueued), robots.txt respected too;
 * alternating, and prints pages/s of each and the ratio (target >= 1.0x). Then the p50 latency of
 * GET /v1/scrape (fresh=true, so no cache) against a bare fetch-and-convert of the same page in
 * this process (target: within 20 ms). Last, the Redis bytes one crawl with include_html adds per
 * crawled page (job keys by MEMORY USAGE, and INFO used_memory): results live in the blob store, so
 * this stays at a few hundred bytes whatever the pages weigh.
 *
 * Usage: node bench/crawl/run.js [--rounds 3] [--concurrency 8] [--scrapes 100]
 * Needs a build (npm run setup).
 */
const { fork } = require('node:child_process');
const { once } = require('node:events');
const os = require('node:os');
const path = require('node:path');
const { ROOT, numericOptions, startStack, percentile, runPool } = require('../lib/harness');

const { rounds: ROUNDS, concurrency: CONCURRENCY, scrapes: SCRAPES } = numericOptions({ rounds: 3, concurrency: 8, scrapes: 100 });

const { createContentExtractor } = require(path.join(ROOT, 'packages/web/dist/index.js'));
const undici = require(require.resolve('undici', { paths: [ROOT] }));
const { Redis } = require(require.resolve('ioredis', { paths: [path.join(ROOT, 'packages/queue')] }));

async function startSite() {
  const child = fork(path.join(__dirname, 'site.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [{ port, pages }] = await once(child, 'message');
  return { origin: `http://127.0.0.1:${port}`, pages, stop: () => child.kill('SIGTERM') };
}

async function serviceCrawl(origin, site, extra = {}) {
  const started = performance.now();
  const created = await fetch(`${origin}/v1/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.origin}/`, depth: 5, link_limit: site.pages, ...extra }),
  });
  const { status_url: statusUrl } = await created.json();
  for (;;) {
    const view = await (await fetch(statusUrl)).json();
    if (view.status === 'completed') {
      const { successful_pages: pages, failed_pages: failed } = view.data.statistics;
      if (failed > 0) throw new Error(`service crawl failed pages: ${JSON.stringify(view.data.error_data)}`);
      return { pages, ms: performance.now() - started };
    }
    if (view.status === 'failed') throw new Error(`service crawl failed: ${view.error}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function crawleeCrawl(site) {
  const { CheerioCrawler, Configuration, log } = require('@crawlee/cheerio');
  log.setLevel(log.LEVELS.OFF);
  const extractor = createContentExtractor();
  let pages = 0;
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: site.pages,
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestRetries: 0,
      respectRobotsTxtFile: true,
      async requestHandler({ request, body, enqueueLinks }) {
        const content = extractor.extract(body.toString(), request.loadedUrl ?? request.url, { markdown: true });
        if (!content.markdown) throw new Error(`no content at ${request.url}`);
        pages += 1;
        await enqueueLinks({ strategy: 'same-hostname' });
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: true }),
  );
  const started = performance.now();
  await crawler.run([`${site.origin}/`]);
  return { pages, ms: performance.now() - started };
}

function bareScraper() {
  const extractor = createContentExtractor();
  const agent = new undici.Agent({ keepAliveTimeout: 30_000 });
  return {
    async scrape(url) {
      const response = await undici.request(url, { dispatcher: agent, headers: { accept: 'text/html' } });
      const html = await response.body.text();
      const content = extractor.extract(html, url, { markdown: true });
      if (!content.markdown) throw new Error('no content');
    },
    close: () => agent.close(),
  };
}

/** Bytes Redis holds under the queue prefix (MEMORY USAGE of every key, all samples). */
async function prefixBytes(redis, prefix) {
  let total = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) total += (await redis.memory('USAGE', key, 'SAMPLES', 0)) ?? 0;
  } while (cursor !== '0');
  return total;
}

const usedMemory = async (redis) => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);

/** What one crawl with include_html leaves in Redis, per crawled page. */
async function redisPerPage(stack, site) {
  const redis = new Redis(stack.redisUrl);
  try {
    const keysBefore = await prefixBytes(redis, stack.prefix);
    const usedBefore = await usedMemory(redis);
    const run = await serviceCrawl(stack.origin, site, { include_html: true });
    const keys = (await prefixBytes(redis, stack.prefix)) - keysBefore;
    const used = (await usedMemory(redis)) - usedBefore;
    console.log(
      `\nRedis per crawled page (include_html, ${run.pages} pages): job keys ${(keys / run.pages).toFixed(0)} B/page, used_memory ${(used / run.pages).toFixed(0)} B/page`,
    );
  } finally {
    redis.disconnect();
  }
}

const rate = (run) => run.pages / (run.ms / 1000);
const median = (values) => percentile(values, 50);

async function main() {
  const site = await startSite();
  const stack = await startStack('parse-worker', { CRAWL_CONCURRENCY: String(CONCURRENCY) });
  const { origin } = stack;
  try {
    console.log(
      `Crawl benchmark: ${site.pages}-page local site, ${ROUNDS} rounds, concurrency ${CONCURRENCY}, ${os.cpus().length} cores\n`,
    );
    await serviceCrawl(origin, site); // warm-up: content threads, connections, JIT
    await crawleeCrawl(site);

    const ours = [];
    const theirs = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const service = await serviceCrawl(origin, site);
      const crawlee = await crawleeCrawl(site);
      if (service.pages !== site.pages || crawlee.pages !== site.pages) {
        throw new Error(`pages crawled: service ${service.pages}, crawlee ${crawlee.pages}, expected ${site.pages}`);
      }
      ours.push(rate(service));
      theirs.push(rate(crawlee));
      console.log(
        `round ${round}: sitelens ${rate(service).toFixed(1)} pages/s (${service.ms.toFixed(0)} ms)   crawlee ${rate(crawlee).toFixed(1)} pages/s (${crawlee.ms.toFixed(0)} ms)`,
      );
    }
    const ratio = median(ours) / median(theirs);
    console.log(`\nsitelens crawl (median)       ${median(ours).toFixed(1)} pages/s`);
    console.log(`@crawlee/cheerio (median)     ${median(theirs).toFixed(1)} pages/s`);
    console.log(`throughput ratio sitelens/crawlee: ${ratio.toFixed(2)}x   (target >= 1.0x) ${ratio >= 1 ? 'MET' : 'MISSED'}\n`);

    const pageUrl = `${site.origin}/articles/5.html`;
    const scrapeUrl = `${origin}/v1/scrape?url=${encodeURIComponent(pageUrl)}&fresh=true`;
    const serviceScrape = async () => {
      const response = await fetch(scrapeUrl);
      const body = await response.json();
      if (!body.success || !body.content) throw new Error(`scrape failed: ${JSON.stringify(body)}`);
    };
    const bare = bareScraper();
    try {
      await runPool(20, 1, serviceScrape);
      await runPool(20, 1, () => bare.scrape(pageUrl));
      const serviceRun = await runPool(SCRAPES, 1, serviceScrape);
      const bareRun = await runPool(SCRAPES, 1, () => bare.scrape(pageUrl));
      const serviceP50 = percentile(serviceRun.durations, 50);
      const bareP50 = percentile(bareRun.durations, 50);
      const delta = serviceP50 - bareP50;
      console.log(`GET /v1/scrape, fresh (p50)   ${serviceP50.toFixed(1)} ms   p95 ${percentile(serviceRun.durations, 95).toFixed(1)} ms`);
      console.log(`bare fetch + convert (p50)    ${bareP50.toFixed(1)} ms   p95 ${percentile(bareRun.durations, 95).toFixed(1)} ms`);
      console.log(`p50 latency service - bare: ${delta.toFixed(1)} ms   (target <= 20 ms) ${delta <= 20 ? 'MET' : 'MISSED'}`);
    } finally {
      await bare.close();
    }
    await redisPerPage(stack, site);
  } finally {
    await stack.stop();
    site.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
