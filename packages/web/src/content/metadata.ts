/**
 * Page metadata in the contract's field names. URLs are absolute; a field the page does not
 * declare is left out rather than guessed.
 */
import { absoluteHttpUrl, baseUrlOf, textOf } from './dom';

export interface PageMetadata {
  title: string;
  description?: string;
  language?: string;
  canonical?: string;
  favicon?: string;
  og_title?: string;
  og_description?: string;
  og_image?: string;
  /** Documents (PDF): their page count and the author they name. */
  page_count?: number;
  author?: string;
}

/** A meta tag's content, whitespace collapsed, or undefined when the page has none (or an empty one). */
export function metaContent(document: Document, selector: string): string | undefined {
  const value = document.querySelector(selector)?.getAttribute('content');
  const text = value?.replace(/\s+/g, ' ').trim();
  return text || undefined;
}

function linkHref(document: Document, rel: string, base: string): string | undefined {
  for (const link of Array.from(document.querySelectorAll('link[rel][href]'))) {
    const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rels.includes(rel)) {
      const href = absoluteHttpUrl(link.getAttribute('href'), base);
      if (href) return href;
    }
  }
  return undefined;
}

export function extractMetadata(document: Document, pageUrl: string): PageMetadata {
  const base = baseUrlOf(document, pageUrl);
  const ogTitle = metaContent(document, 'meta[property="og:title"], meta[name="og:title"]');
  const ogDescription = metaContent(document, 'meta[property="og:description"], meta[name="og:description"]');
  const description = metaContent(document, 'meta[name="description" i]') ?? ogDescription;
  const title = textOf(document.querySelector('title')) || ogTitle || textOf(document.querySelector('h1'));
  const language =
    document.documentElement?.getAttribute('lang')?.trim() || metaContent(document, 'meta[http-equiv="content-language" i]') || undefined;
  const ogImage = absoluteHttpUrl(
    metaContent(document, 'meta[property="og:image"], meta[property="og:image:url"], meta[property="og:image:secure_url"]'),
    base,
  );
  const metadata: PageMetadata = { title };
  const optional: Array<[Exclude<keyof PageMetadata, 'page_count'>, string | undefined]> = [
    ['description', description],
    ['language', language],
    ['canonical', linkHref(document, 'canonical', base)],
    ['favicon', linkHref(document, 'icon', base) ?? linkHref(document, 'apple-touch-icon', base)],
    ['og_title', ogTitle],
    ['og_description', ogDescription],
    ['og_image', ogImage],
  ];
  for (const [key, value] of optional) if (value) metadata[key] = value;
  return metadata;
}
