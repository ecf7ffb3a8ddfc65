'use strict';
/**
 * The crawl benchmark's site: 200 generated article pages (header, nav, cookie banner, article
 * with a table, related links, footer), each linking to the next ten pages of a tree and to two
 * "related" pages, so a breadth-first crawl reaches all 200 within three hops. Runs as a child
 * process (so serving pages does not take CPU from the crawler under test) and reports its port
 * over IPC.
 */
const http = require('node:http');

const PAGES = Number(process.env.BENCH_SITE_PAGES ?? 200);
const WORDS = 'coast tide harbour ferry lighthouse cliff estuary dune shingle kelp gull rockpool heron current breakwater'.split(' ');

function sentence(seed, length) {
  const words = Array.from({ length }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]);
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
}

function paragraph(seed) {
  return `<p>${Array.from({ length: 6 }, (_, i) => sentence(seed + i, 12 + ((seed + i) % 9))).join(' ')}</p>`;
}

const pagePath = (id) => (id === 0 ? '/' : `/articles/${id}.html`);

function page(id) {
  const children = Array.from({ length: 10 }, (_, k) => id * 10 + k + 1).filter((child) => child < PAGES);
  const related = [(id + 37) % PAGES, (id + 91) % PAGES];
  const links = [...children, ...related].map((to) => `<li><a href="${pagePath(to)}">Article ${to}: ${sentence(to, 5)}</a></li>`).join('');
  const rows = Array.from(
    { length: 6 },
    (_, r) => `<tr><td>Station ${id}-${r}</td><td>${(id * 3 + r) % 40}</td><td>${((id + r) * 1.7).toFixed(1)}</td></tr>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${id} | Coastal Notes</title>
<meta name="description" content="${sentence(id, 10)}"><link rel="canonical" href="${pagePath(id)}"></head><body>
<div class="cookie-banner"><p>We use cookies to improve your experience.</p><button>Accept</button></div>
<header><a href="/">Coastal Notes</a><nav><ul><li><a href="/">Home</a></li><li><a href="${pagePath(1)}">Tides</a></li><li><a href="${pagePath(2)}">Harbours</a></li></ul></nav></header>
<main><article><h1>Article ${id}: ${sentence(id, 6)}</h1><p class="byline">By the Coastal Notes desk</p>
${Array.from({ length: 5 }, (_, i) => paragraph(id * 5 + i)).join('\n')}
<h2>Readings</h2><table><thead><tr><th>Station</th><th>Depth (m)</th><th>Temperature (°C)</th></tr></thead><tbody>${rows}</tbody></table>
${Array.from({ length: 3 }, (_, i) => paragraph(id * 3 + 100 + i)).join('\n')}
<h2>Read next</h2><ul>${links}</ul></article></main>
<aside class="newsletter"><h3>Newsletter</h3><p>Sign up for the weekly tide tables.</p></aside>
<footer><p>© Coastal Notes</p><a href="/">Home</a></footer></body></html>`;
}

const bodies = new Map(Array.from({ length: PAGES }, (_, id) => [pagePath(id), Buffer.from(page(id))]));
const robots = Buffer.from('User-agent: *\nAllow: /\n');

const server = http.createServer((req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://site').pathname;
  if (pathname === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
  const body = bodies.get(pathname);
  if (!body) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port, pages: PAGES }));
process.on('disconnect', () => process.exit(0));
