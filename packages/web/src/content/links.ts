/** The page's outgoing links: absolute, http(s) only, without fragments, each once, in page order. */
import { absoluteHttpUrl, baseUrlOf } from './dom';

export function extractLinks(document: Document, pageUrl: string): string[] {
  const base = baseUrlOf(document, pageUrl);
  const seen = new Set<string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const raw = anchor.getAttribute('href')?.trim() ?? '';
    // In-page anchors point back at this page, not to another one.
    if (raw.startsWith('#')) continue;
    const href = absoluteHttpUrl(raw, base);
    if (!href) continue;
    const url = new URL(href);
    url.hash = '';
    seen.add(url.href);
  }
  return [...seen];
}
