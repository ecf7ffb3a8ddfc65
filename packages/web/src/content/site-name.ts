/**
 * Forum and shop themes (phpBB's prosilver among them) put the site's name in the page's only h1,
 * in the banner, and the topic's title in an h2. Such an h1 is no title: the document title
 * reads "<topic> - <site name>", the h1 is one part of it and a heading on the page the other,
 * or the h1 is the page's declared og:site_name.
 */
import { normalise, textOf } from './dom';

/** The separators titles join a page's name and the site's with. */
const SEPARATOR = /\s+[-|–—·»:]\s+/u;

interface TitleParts {
  siteName: string;
  titleParts: string[];
  subheadings: Set<string>;
}

/** What the test needs from the page, read once per document however many h1s ask. */
const cache = new WeakMap<Document, TitleParts>();
function titleParts(document: Document): TitleParts {
  let parts = cache.get(document);
  if (!parts) {
    parts = {
      siteName: normalise(document.querySelector('meta[property="og:site_name"]')?.getAttribute('content') ?? ''),
      titleParts: normalise(textOf(document.querySelector('title'))).split(SEPARATOR),
      subheadings: new Set(Array.from(document.querySelectorAll('h2, h3')).map((h) => normalise(textOf(h)))),
    };
    cache.set(document, parts);
  }
  return parts;
}

/**
 * A logo in an h1: every word of it links to a site's home page (`<h1><a href="/">NAVER</a>
 * <a href="https://news.example/">News</a></h1>`), outside the page's main content.
 */
function isHomeLinkHeading(heading: Element): boolean {
  if (heading.closest('main, article, [role="main"]')) return false;
  const links = Array.from(heading.querySelectorAll('a[href]'));
  if (links.length === 0) return false;
  const linked = links
    .map((a) => textOf(a))
    .join('')
    .replace(/\s+/g, '');
  if (linked.length !== textOf(heading).replace(/\s+/g, '').length) return false;
  return links.every((a) => {
    const href = a.getAttribute('href') ?? '';
    if (href === '/') return true;
    try {
      const url = new URL(href);
      return (url.pathname === '/' || url.pathname === '') && !url.search;
    } catch {
      return false;
    }
  });
}

export function isSiteNameHeading(heading: Element, document: Document): boolean {
  const text = normalise(textOf(heading));
  if (!text) return false;
  if (isHomeLinkHeading(heading)) return true;
  const page = titleParts(document);
  if (page.siteName === text) return true;
  // Only a banner's h1: a page's own title may share the document title with a section heading.
  const inBanner = heading.closest('header, [role="banner"]') !== null && heading.closest('main, article, [role="main"]') === null;
  if (page.titleParts.length < 2 || !page.titleParts.includes(text) || !inBanner) return false;
  return page.titleParts.some((part) => part !== text && page.subheadings.has(part));
}
