/** The fixture site parse tests read: a product page, a small blog, a PDF, a flaky page and a missing one. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENTS_ROOT, startFixtureSite, type FixtureSite } from '@sitelens/testkit';

export const POSTS = [
  { slug: 'post-1', title: 'Crossing the Alps', author: 'Ana Ruiz', city: 'Turin' },
  { slug: 'post-2', title: 'Rain, "again", in Lyon', author: 'Ben Okafor', city: 'Lyon' },
  { slug: 'post-3', title: 'A week by the sea', author: 'Chen Wei', city: 'Nice' },
] as const;

export interface ShopSite extends FixtureSite {
  urls: { product: string; blog: string; posts: string[]; flaky: string; missing: string; report: string };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><header><p>Fixture site</p></header><main>${body}</main><footer>Fixture site</footer></body></html>`;
}

const PRODUCT = page(
  'Blue Widget',
  `<article><h1>Blue Widget</h1><p class="price">Price: 19.99 EUR</p><p>In stock. A sturdy widget for every workshop,
  made of recycled aluminium, with a lifetime warranty and free shipping.</p></article>`,
);

const BLOG = page(
  'Road Notes',
  `<h1>Road Notes</h1><p>Stories from a year on the road.</p><ul>${POSTS.map(
    (post) => `<li><a href="/blog/${post.slug}">${post.title}</a></li>`,
  ).join('')}</ul>`,
);

function post(entry: (typeof POSTS)[number]): string {
  return page(
    entry.title,
    `<article><h1>${entry.title}</h1><p class="byline">By ${entry.author}</p>
    <p>We reached ${entry.city} after a long day of driving. The road was quiet and the views were worth every kilometre.</p></article>`,
  );
}

export async function startShopSite(): Promise<ShopSite> {
  const site = await startFixtureSite();
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
  site.route('/shop/widget', html(PRODUCT));
  site.route('/blog/', html(BLOG));
  for (const entry of POSTS) site.route(`/blog/${entry.slug}`, html(post(entry)));
  // A PDF (two pages: revenue and outlook), read like a page.
  const report = readFileSync(path.join(DOCUMENTS_ROOT, 'report.pdf'));
  site.route('/docs/report.pdf', (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end(report));
  // Fails the first time it is asked for, then works: a crawl that fails, then a scrape that does not.
  let flakyHits = 0;
  site.route('/flaky/', (_req, res) => {
    flakyHits += 1;
    if (flakyHits === 1) res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Busy</h1>');
    else html(PRODUCT)(_req, res);
  });
  return Object.assign(site, {
    urls: {
      product: `${site.origin}/shop/widget`,
      blog: `${site.origin}/blog/`,
      posts: POSTS.map((entry) => `${site.origin}/blog/${entry.slug}`),
      flaky: `${site.origin}/flaky/`,
      missing: `${site.origin}/gone`,
      report: `${site.origin}/docs/report.pdf`,
    },
  });
}
