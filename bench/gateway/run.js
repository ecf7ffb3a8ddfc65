#!/usr/bin/env node
'use strict';
/**
 * Gateway responsiveness under a mixed, hostile load: does one tenant's expensive request stall the
 * event loop every other tenant shares? The service runs as production runs it (gateway and
 * parse-worker processes, private Redis, the scripted OpenAI-compatible model), and two phases run
 * back to back in one run:
 *   quiet: only /v1/health probes (20 per second), the baseline;
 *   mixed: the same probes while clients send parse requests with ~60 KB schemas of 1,000
 *          properties with patterns (the largest the service accepts), fresh scrapes of a local
 *          page and screenshot jobs.
 * For each phase it prints the /v1/health latency (p50, p95, max, as a client sees it) and the
 * gateway's own event-loop delay (p50, p99, max from its Prometheus metrics, which reset at each
 * scrape). Target: /v1/health p95 under 200 ms in the mixed phase.
 *
 * Usage: node bench/gateway/run.js [--seconds 15] [--clients 4]
 * Needs a build (npm run setup).
 */
const http = require('node:http');
const os = require('node:os');
const { numericOptions, startStack, percentile, loadScriptedModel } = require('../lib/harness');

const { seconds: SECONDS, clients: CLIENTS } = numericOptions({ seconds: 15, clients: 4 });

/** The largest schema the service accepts: 1,000 string properties, each with a pattern (~60 KB). */
function bigSchema() {
  const properties = {};
  for (let i = 0; i < 1000; i += 1)
    properties[`field_${String(i).padStart(4, '0')}`] = { type: 'string', pattern: `^[a-z]{1,${(i % 40) + 1}}$` };
  return { type: 'object', properties };
}

function startSite() {
  const page =
    '<!doctype html><html lang="en"><head><title>Widget</title></head><body><main><h1>Blue Widget</h1>' +
    '<p>Price: 19.99 EUR. A sturdy widget for every day.</p></main></body></html>';
  return new Promise((resolve) => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }));
  });
}

/** The gateway's event-loop delay since the last scrape (prom-client resets it at each one). */
async function eventLoopLag(origin) {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const read = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return {
    p50: read('nodejs_eventloop_lag_p50_seconds'),
    p99: read('nodejs_eventloop_lag_p99_seconds'),
    max: read('nodejs_eventloop_lag_max_seconds'),
  };
}

/** Probes /v1/health every 50 ms until `until`, returning each answer's latency in ms. */
async function probeHealth(origin, until) {
  const latencies = [];
  while (Date.now() < until) {
    const started = performance.now();
    await fetch(`${origin}/v1/health`).then((r) => r.arrayBuffer());
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies;
}

async function loadClient(origin, pageUrl, schema, until, counts) {
  const body = (json) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  for (let i = 0; Date.now() < until; i += 1) {
    const kind = i % 3;
    let response;
    if (kind === 0)
      response = await fetch(`${origin}/v1/parse`, body({ prompt: `Extract the product from ${pageUrl}`, schema, async: true }));
    else if (kind === 1) response = await fetch(`${origin}/v1/scrape?fresh=true&url=${encodeURIComponent(pageUrl)}`);
    else response = await fetch(`${origin}/v1/screenshots`, body({ url: pageUrl }));
    await response.arrayBuffer();
    const key = ['parse', 'scrape', 'screenshot'][kind];
    counts[key] = (counts[key] ?? 0) + 1;
    counts[`${key} ${response.status}`] = (counts[`${key} ${response.status}`] ?? 0) + 1;
  }
}

const fmt = (ms) => `${ms.toFixed(1)} ms`;

async function main() {
  const { startScriptedModel, reply } = loadScriptedModel();
  const model = await startScriptedModel({ respond: () => reply.json({ field_0000: 'blue' }, { latencyMs: 50 }) });
  const site = await startSite();
  const stack = await startStack('parse-worker', { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'bench', LLM_MODEL: 'bench-model' });
  const schema = bigSchema();
  console.log(
    `gateway bench: schema ${(JSON.stringify(schema).length / 1024).toFixed(1)} KiB, ${SECONDS} s per phase, ${CLIENTS} load clients, ${os.cpus().length} cores`,
  );
  try {
    await eventLoopLag(stack.origin); // resets the histogram
    const quiet = await probeHealth(stack.origin, Date.now() + SECONDS * 1000);
    const quietLag = await eventLoopLag(stack.origin);

    const counts = {};
    const until = Date.now() + SECONDS * 1000;
    const [mixed] = await Promise.all([
      probeHealth(stack.origin, until),
      ...Array.from({ length: CLIENTS }, () => loadClient(stack.origin, site.url, schema, until, counts)),
    ]);
    const mixedLag = await eventLoopLag(stack.origin);

    const row = (name, latencies, lag) =>
      `${name.padEnd(6)} health p50 ${fmt(percentile(latencies, 50))}  p95 ${fmt(percentile(latencies, 95))}  max ${fmt(Math.max(...latencies))}` +
      `  | event-loop delay p50 ${fmt(lag.p50)}  p99 ${fmt(lag.p99)}  max ${fmt(lag.max)}  (${latencies.length} probes)`;
    console.log(row('quiet', quiet, quietLag));
    console.log(row('mixed', mixed, mixedLag));
    console.log(`mixed load requests: ${JSON.stringify(counts)}`);
    const p95 = percentile(mixed, 95);
    console.log(`target: health p95 under 200 ms with the mixed load: ${p95 < 200 ? 'met' : 'NOT met'} (${fmt(p95)})`);
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
