/**
 * The page's main content: Readability on the pre-cleaned document, falling back to the page's
 * own main/article element (or the cleaned body) when Readability finds nothing or clearly too
 * little. The result always starts with the page title as its h1.
 */
import { Readability } from '@mozilla/readability';
import { absoluteHttpUrl, baseUrlOf, collapseSpace, normalise, parseDocument, retag, textOf } from './dom';
import { CAPTION_TEXT, captionsIn, removeChrome } from './clean';
import { isPermalink, pruneBoilerplate } from './boilerplate-blocks';
import { isSiteNameHeading } from './site-name';
import { removeTitleRepeats } from './title-repeats';
import { declaresRecipe, isShopPage, readStructuredData } from './structured-data';
import { comparable, probeOf, quotedBlocks, restoreMissingPosts, restoreQuotedBlocks, standfirstBlock } from './coverage';
import { MIN_REPLIES, threadPosts } from './discussion';
import { separateFields } from './fields';
import { missesListedLines } from './listed-lines';
import { metaContent } from './metadata';
import { prepareGeneratedPage } from './doc-generators';

export interface MainContent {
  /** The title shown as the content's h1. */
  title: string;
  /** The content root (detached from the document it came from). */
  root: Element;
  source: 'readability' | 'fallback';
}

const LAZY_SRC = ['data-src', 'data-lazy-src', 'data-original', 'data-url'];

/** Rewrites links and images to absolute URLs (linkedom has no baseURI for Readability to use). */
export function absolutize(document: ParentNode, base: string): void {
  for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    const absolute = absoluteHttpUrl(href, base);
    if (absolute) anchor.setAttribute('href', absolute);
  }
  for (const image of Array.from(document.querySelectorAll('img'))) {
    const lazy = LAZY_SRC.map((name) => image.getAttribute(name)).find(Boolean);
    const src = image.getAttribute('src');
    const chosen = !src || src.startsWith('data:') ? (lazy ?? src) : src;
    const absolute = absoluteHttpUrl(chosen, base);
    if (absolute) image.setAttribute('src', absolute);
    image.removeAttribute('srcset');
  }
}

/** What the page's meta tags say it is about (its dek, on most article pages). */
function metaDescription(document: Document): string {
  return metaContent(document, 'meta[name="description" i], meta[property="og:description" i], meta[name="twitter:description" i]') ?? '';
}

/** The page's own idea of its main content, if it marks one. */
function semanticContainer(document: Document): Element | null {
  const main = document.querySelector('main, [role="main"]');
  if (main) return main;
  const articles = Array.from(document.querySelectorAll('article'));
  if (articles.length === 0) return null;
  return articles.reduce((best, a) => ((a.textContent ?? '').length > (best.textContent ?? '').length ? a : best));
}

/** A heading's text without the controls and permalinks some sites put in it ("Copy item path", "¶"). */
function headingText(heading: Element): string {
  const copy = heading.cloneNode(true) as Element;
  for (const control of Array.from(copy.querySelectorAll('button, script, style, [aria-hidden="true"]'))) control.remove();
  for (const anchor of Array.from(copy.querySelectorAll('a'))) if (isPermalink(anchor)) anchor.remove();
  return textOf(copy);
}

function pageHeading(document: Document): string {
  const headings = Array.from(document.querySelectorAll('h1'))
    .filter((h) => !isSiteNameHeading(h, document))
    .map(headingText)
    .filter(Boolean);
  return headings.length === 1 ? headings[0]! : '';
}

/** Makes the title the content's first heading, reusing a heading that already says it. */
function ensureTitleHeading(root: Element, title: string): void {
  if (!title) return;
  const first = root.querySelector('h1, h2, h3');
  if (first && normalise(textOf(first)) === normalise(title)) {
    if (first.tagName === 'H1') return;
    const h1 = root.ownerDocument.createElement('h1');
    h1.textContent = textOf(first);
    first.replaceWith(h1);
    if (root.firstElementChild !== h1) root.insertBefore(h1, root.firstChild);
    return;
  }
  for (const h1 of Array.from(root.querySelectorAll('h1'))) retag(h1, 'h2');
  const heading = root.ownerDocument.createElement('h1');
  heading.textContent = title;
  root.insertBefore(heading, root.firstChild);
}

function cleanedDocument(html: string, pageUrl: string, prepare: ((document: Document) => void) | undefined): Document {
  const document = parseDocument(html);
  prepare?.(document);
  prepareGeneratedPage(document);
  absolutize(document, baseUrlOf(document, pageUrl));
  removeChrome(document);
  if (document.body) separateFields(document.body);
  return document;
}

/** A detached root holding `container`'s children. */
function rootOf(document: Document, container: Element | null): Element {
  const root = document.createElement('div');
  for (const child of Array.from(container?.childNodes ?? [])) root.appendChild(child);
  return root;
}

function fallbackContent(html: string, pageUrl: string, prepare: ((document: Document) => void) | undefined): Element {
  const document = cleanedDocument(html, pageUrl, prepare);
  return rootOf(document, semanticContainer(document) ?? document.body);
}

/** Characters of a paragraph of Readability's pick that tell where it sits in the page. */
const MIN_PROBE = 60;
/** How much more text than Readability's pick the product's block holds, to be taken instead. */
const MORE_THAN_PICK = 1.3;

/** Items of a list of a product's features, at least, each this long: a buy box's "30-day returns" is no feature. */
const MIN_FEATURES = 3;
const FEATURE_TEXT = 20;

/** A spec table (label and value rows), or a list of a product's features (sentences, not links). */
function isSpecOrFeatures(element: Element): boolean {
  if (element.tagName === 'TABLE') return element.querySelectorAll('tr').length >= 2 && element.querySelector('th, td') !== null;
  const items = Array.from(element.children).filter((child) => child.tagName === 'LI');
  return items.length >= MIN_FEATURES && items.every((item) => textOf(item).length >= FEATURE_TEXT && item.querySelector('a') === null);
}

/**
 * A product page's block: the smallest element holding both the product's title (the page's
 * only h1) and the description Readability picked. Readability scores the description's box
 * (its paragraphs) and leaves out what stands beside it: the title's block with the feature
 * bullets and the price, and the spec table in the next tab panel. Null when the pick already
 * holds about all of it, when it holds no spec table or feature list the pick lacks (only the
 * buy box), or the two meet only at the page's body.
 */
function productBlock(html: string, pageUrl: string, prepare: ((document: Document) => void) | undefined, pick: Element): Element | null {
  const probe = Array.from(pick.querySelectorAll('p'))
    .map((p) => comparable(p.textContent ?? ''))
    .find((text) => text.length >= MIN_PROBE);
  if (!probe) return null;
  const document = cleanedDocument(html, pageUrl, prepare);
  const headings = Array.from(document.querySelectorAll('h1')).filter((h) => !isSiteNameHeading(h, document));
  if (headings.length !== 1) return null;
  const paragraph = Array.from(document.querySelectorAll('p')).find((p) => comparable(p.textContent ?? '') === probe);
  let block: Element | null = paragraph ?? null;
  while (block && !block.contains(headings[0]!)) block = block.parentElement;
  if (!block || block === document.body || block === document.documentElement) return null;
  if (textOf(block).length < collapseSpace(pick.textContent ?? '').length * MORE_THAN_PICK) return null;
  const picked = comparable(pick.textContent ?? '');
  const missing = (element: Element) => !picked.includes(comparable(element.textContent ?? ''));
  // A list after the description may be its readers' reviews: features are listed before it or
  // beside the title; a spec table may come after (the next tab panel).
  // Page order by position in the block (linkedom's compareDocumentPosition answers PRECEDING for a later node in another subtree).
  const order = new Map(Array.from(block.querySelectorAll('*')).map((element, index) => [element, index]));
  const beforePick = (element: Element) => paragraph !== undefined && (order.get(element) ?? Infinity) < (order.get(paragraph) ?? -1);
  const specs = Array.from(block.querySelectorAll('table, ul, ol')).filter(
    (el) => missing(el) && isSpecOrFeatures(el) && (el.tagName === 'TABLE' || beforePick(el)),
  );
  if (specs.length === 0) return null;
  return rootOf(document, block);
}

/**
 * Extracts the main content of `html`. The document passed in is consumed (Readability changes
 * it); pass a freshly parsed one. `prepare` runs on every document made from the page (the one
 * given, already prepared by the caller, and the fallback's own parse): `exclude_selectors`.
 */
export function extractMainContent(
  document: Document,
  html: string,
  pageUrl: string,
  fallbackTitle: string,
  prepare?: (document: Document) => void,
): MainContent {
  prepareGeneratedPage(document);
  const heading = pageHeading(document);
  // What the page says its article or product is about, read before removeChrome drops the scripts.
  const data = readStructuredData(document);
  const probes = [data.articleBody, data.description].map(probeOf).filter(Boolean);
  const shop = isShopPage(document, data);
  absolutize(document, baseUrlOf(document, pageUrl));
  // The thread is told before the chrome goes: a post's box is known by its author card and controls.
  const threadBodies = document.body ? threadPosts(document.body) : [];
  removeChrome(document, data, shop);
  if (document.body) separateFields(document.body);
  const container = semanticContainer(document);
  const containerContent = container ? textOf(container) : '';
  const containerText = containerContent.length;
  // Captions left after the chrome went: only a page told in its captions keeps them.
  const captions = [...new Set(captionsIn(document).map(textOf))].filter((text) => text.length >= CAPTION_TEXT);
  const quoted = quotedBlocks(document, probes);
  const standfirst = standfirstBlock(document, metaDescription(document));
  if (standfirst) quoted.unshift(standfirst);
  // Still a thread once the chrome is gone (a wiki's sidebar and footer may be written like its
  // page); copies, as Readability moves and changes the page's own nodes.
  const kept = threadBodies.filter((post) => post.isConnected);
  const posts = kept.length > MIN_REPLIES ? kept.map((post) => post.cloneNode(true) as Element) : [];
  const page = { shop, reviewed: shop || declaresRecipe(data), thread: posts.length > 0 };

  const article = new Readability<Element>(document, {
    charThreshold: 300,
    keepClasses: false,
    serializer: (node) => node as Element,
  }).parse();
  const articleText = article?.textContent ? collapseSpace(article.textContent).length : 0;
  const title = heading || article?.title?.trim() || fallbackTitle;

  // Readability picked a fragment of a page that marks its main content clearly: trust the page.
  // So did it when it left out the recipe's ingredients or the gallery's captions, which the
  // page's container holds.
  const tooLittle =
    articleText < 100 ||
    (containerText > articleText * 2 && articleText < 1500) ||
    missesListedLines(data.ingredients, article?.textContent ?? '', containerContent) ||
    missesListedLines(captions, article?.textContent ?? '', containerContent);

  const finish = (root: Element, source: MainContent['source']): MainContent => {
    pruneBoilerplate(root, page);
    ensureTitleHeading(root, title);
    removeTitleRepeats(root, title);
    return { title, root, source };
  };
  // On a shop page, the product's block around Readability's pick of its description.
  const product = article?.content && !tooLittle && shop ? productBlock(html, pageUrl, prepare, article.content) : null;
  if (product) return finish(product, 'fallback');
  if (article?.content && !tooLittle) {
    restoreQuotedBlocks(article.content, quoted);
    restoreMissingPosts(article.content, posts);
    return finish(article.content, 'readability');
  }
  const root = fallbackContent(html, pageUrl, prepare);
  restoreMissingPosts(root, posts);
  return finish(root, 'fallback');
}
