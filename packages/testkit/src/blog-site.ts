/** The fixture blog: static pages, with robots.txt and sitemaps templated with the live origin. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startFixtureSite, type FixtureSite } from './fixture-site';

export const BLOG_ROOT = path.join(__dirname, '../fixtures/blog');

/** Static pages (articles, docs, a JS-only shell) with the markdown each should give. */
export const PAGES_ROOT = path.join(__dirname, '../fixtures/pages');
/** report.pdf (2 pages, a title and an author) and notes.docx (headings, a table, a list); see fixtures/documents/README.md. */
export const DOCUMENTS_ROOT = path.join(__dirname, '../fixtures/documents');

export async function startBlogSite(): Promise<FixtureSite> {
  const site = await startFixtureSite({ root: BLOG_ROOT });
  const templated = (file: string, type: string) => async (_req: unknown, res: import('node:http').ServerResponse) => {
    const body = (await readFile(path.join(BLOG_ROOT, file), 'utf8')).replaceAll('{{origin}}', site.origin);
    res.writeHead(200, { 'content-type': type }).end(body);
  };
  site.route('/robots.txt', templated('robots.txt', 'text/plain'));
  for (const file of ['sitemap.xml', 'sitemap-pages.xml', 'sitemap-posts.xml']) {
    site.route(`/${file}`, templated(file, 'application/xml'));
  }
  return site;
}

/** The paths of page requests the site has seen (robots.txt and sitemaps left out). */
export function pageHits(site: FixtureSite): string[] {
  return site.hits.filter((p) => !p.endsWith('.xml') && p !== '/robots.txt');
}
