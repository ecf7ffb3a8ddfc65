#!/usr/bin/env node
'use strict';
/**
 * Parse benchmark: a 10-page crawl-and-extract through the real service (gateway and parse-worker
 * processes, private Redis) against the scripted OpenAI-compatible model answering every call
 * after a fixed latency. For each run it prints the client's total time, the time at least one
 * model call was in flight, and the share spent outside the model. Targets: pages extracted
 * concurrently (model time about ceil(10 / PARSE_CONCURRENCY) x latency, not 10 x latency) and
 * under 10% of the total outside the model.
 *
 * Usage: node bench/parse/run.js [--runs 5] [--pages 10] [--latency 300] [--concurrency 4]
 * Needs a build (npm run setup).
 */
const http = require('node:http');
const os = require('node:os');
const { numericOptions, startStack, percentile, loadScriptedModel } = require('../lib/harness');

const {
  runs: RUNS,
  pages: PAGES,
  latency: LATENCY_MS,
  concurrency: CONCURRENCY,
} = numericOptions({
  runs: 5,
  pages: 10,
  latency: 300,
  concurrency: 4,
});

/** A small site: a home page linking to PAGES - 1 articles, no robots.txt or sitemap. */
function startSite(pages) {
  const paragraph = 'The trail climbs through pine forest before opening onto a ridge with views across the valley. ';
  const article = (n) =>
    `<!doctype html><html lang="en"><head><title>Article ${n}</title></head><body><main><article><h1>Article ${n}</h1>` +
    `<p>${paragraph.repeat(6)}</p><p>${paragraph.repeat(4)}</p></article></main></body></html>`;
  const home =
    '<!doctype html><html lang="en"><head><title>Trail Journal</title></head><body><main><h1>Trail Journal</h1><ul>' +
    Array.from({ length: pages - 1 }, (_, i) => `<li><a href="/articles/${i + 1}">Article ${i + 1}</a></li>`).join('') +
    '</ul></main></body></html>';
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const match = /^\/articles\/(\d+)$/.exec(req.url ?? '');
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(home);
      else if (match) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article(match[1]));
      else res.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }));
  });
}

/** Milliseconds during which at least one of the calls was being answered. */
function busyMs(requests) {
  const spans = requests.map((r) => [r.receivedAt, r.respondedAt ?? r.receivedAt]).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = spans[0] ?? [0, 0];
  for (const [s, e] of spans.slice(1)) {
    if (s > end) {
      total += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  return total + (end - start);
}

async function main() {
  const { startScriptedModel, reply } = loadScriptedModel();
  const model = await startScriptedModel({
    respond: (request) => {
      const page = /Page: (\S+)/.exec(request.userText)?.[1] ?? '';
      return reply.json({ title: `Title of ${page}`, summary: 'A walk along a ridge.' }, { latencyMs: LATENCY_MS });
    },
  });
  const site = await startSite(PAGES);
  const stack = await startStack('parse-worker', {
    OPS_HTTP_ADDR: 'off',
    OPENAI_BASE_URL: model.baseUrl,
    OPENAI_API_KEY: 'bench',
    LLM_MODEL: 'scripted-model',
    PARSE_CONCURRENCY: String(CONCURRENCY),
  });
  const { origin } = stack;
  const body = JSON.stringify({ prompt: `Crawl ${site.origin}/ and extract the title and summary of every article`, max_pages: PAGES });
  const parseOnce = async () => {
    const first = model.requests.length;
    const started = performance.now();
    const response = await fetch(`${origin}/v1/parse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const result = await response.json();
    const totalMs = performance.now() - started;
    if (response.status !== 200 || result.pages_processed !== PAGES)
      throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(result)}`);
    const calls = model.requests.slice(first);
    return { totalMs, modelMs: busyMs(calls), calls: calls.length };
  };
  try {
    console.log(
      `Parse benchmark: crawl + extract of ${PAGES} pages, model latency ${LATENCY_MS} ms per call, ` +
        `PARSE_CONCURRENCY ${CONCURRENCY}, ${RUNS} runs, ${os.cpus().length} cores\n`,
    );
    await parseOnce(); // warm-up: connections, content threads, first compilation paths
    await parseOnce();
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await parseOnce();
      runs.push(run);
      const outside = run.totalMs - run.modelMs;
      console.log(
        `run ${i + 1}: total ${run.totalMs.toFixed(0)} ms   model ${run.modelMs.toFixed(0)} ms (${run.calls} calls)   ` +
          `outside the model ${outside.toFixed(0)} ms = ${((outside / run.totalMs) * 100).toFixed(1)}%`,
      );
    }
    const total = percentile(
      runs.map((r) => r.totalMs),
      50,
    );
    const modelTime = percentile(
      runs.map((r) => r.modelMs),
      50,
    );
    const share =
      percentile(
        runs.map((r) => (r.totalMs - r.modelMs) / r.totalMs),
        50,
      ) * 100;
    const sequential = PAGES * LATENCY_MS;
    const waves = Math.ceil(PAGES / CONCURRENCY) * LATENCY_MS;
    console.log('');
    console.log(
      `median total ${total.toFixed(0)} ms; model time ${modelTime.toFixed(0)} ms (concurrent floor ${waves} ms, one by one ${sequential} ms)`,
    );
    console.log(`model time <= 1.2 x concurrent floor: ${modelTime <= waves * 1.2 ? 'MET' : 'MISSED'}`);
    console.log(`share outside the model: ${share.toFixed(1)}%   (target < 10%) ${share < 10 ? 'MET' : 'MISSED'}`);
  } finally {
    await stack.stop();
    site.close();
    await model.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
