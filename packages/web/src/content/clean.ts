/**
 * Pre-cleaning before main-content extraction: takes out page chrome (navigation, site header and
 * footer, cookie banners, share widgets, newsletter boxes, comments, related links, ads, bylines,
 * captions unless the page is told in them) so Readability scores only what is left. Rules look
 * at tags, roles, aria labels and class/id words; an element holding the article itself (the main
 * landmark, the longest article, the only h1) is never removed by a class/id guess.
 */

import { Readability } from '@mozilla/readability';
import { HIDDEN_STYLE, collapseSpace, forgetName, linkTextLength } from './dom';
import { removeFormBoxes } from './form-boxes';
import { revealHiddenSlides } from './hidden-slides';
import { demoteProseHeadings, unwrapHeadingButtons } from './heading-buttons';
import { keepChecklistLabels } from './checklists';
import { isSiteNameHeading } from './site-name';
import { repliesShareThePostTemplate } from './discussion';
import { declaresDiscussion, isShopPage, readStructuredData, type StructuredData } from './structured-data';
import { productTitle, pruneBuyBox } from './buy-box';
import { isSignatureName, namesCallout } from './boilerplate-cues';
import { comparable } from './coverage';

/** Never content. */
const NOT_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'link',
  'meta',
  'button',
  'input',
  'select',
  'textarea',
  'label',
  'dialog',
  '[hidden]',
  '[aria-hidden="true"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
  // A tooltip repeats a control's label ("Save this question.") for sighted mouse users.
  '[role="tooltip"]',
  '[aria-modal="true"]',
].join(', ');

/** Chrome by its tag or landmark role. */
const CHROME_LANDMARKS = [
  'nav',
  'aside',
  'footer',
  'address',
  '[role="navigation"]',
  '[role="contentinfo"]',
  '[role="complementary"]',
  '[role="search"]',
  '[role="menu"]',
  '[role="menubar"]',
].join(', ');

/**
 * chrome: never content; layout: chrome outside the article, but too generic to trust inside it
 * ("section-header", "code-footer"); comments; byline: bylines and captions, which are short;
 * controls: a row of a post's or card's actions ("post-actions": Reply, Quote, Report, Helpful?),
 * which is shorter still and holds no block of content.
 */
type Kind = 'chrome' | 'layout' | 'comments' | 'byline' | 'controls';

/** Whole words (after splitting class/id on spaces, - and _) that mark chrome. */
// Maps, not object literals: a page's class name may be "constructor" or "__proto__".
const WORDS = new Map<string, Kind>();
const addWords = (kind: Kind, words: string) => words.split(' ').forEach((w) => WORDS.set(w, kind));
addWords(
  'chrome',
  'cookie cookies consent gdpr ccpa cmp onetrust cookiebot ' +
    'share shares sharing sharebar social sharethis addthis shareaholic sharedaddy ' +
    'newsletter newsletters subscribe subscription subscriptions signup optin mailchimp ' +
    'related recommended recommendations recirculation outbrain taboola popular trending ' +
    'breadcrumb breadcrumbs pagination pager navbar topbar masthead sidebar skiplink ' +
    'ad ads advert adverts advertisement adsbygoogle sponsor sponsored promo feedback upsell ' +
    // MediaWiki's tagline under the title ("From Wikipedia, the free encyclopedia").
    'sitesub',
);
addWords('layout', 'header footer menu banner widget widgets tags tagcloud');
addWords('comments', 'comment comments commentlist disqus respond discussion replies');
addWords('byline', 'byline author authors dateline timestamp postmeta entrymeta articlemeta caption credit credits');
// A forum member's rank under their name.
addWords('byline', 'usertitle');
// A picture's rights holder beside it (the BBC's "Copyright" span: "Image source, Westshire Council").
addWords('byline', 'copyright');
addWords('controls', 'actions');

/** Characters of an actions row at most: a handful of short labels and counts. */
const MAX_CONTROLS = 120;
/** What an actions row never holds: a block of content. */
const CONTENT_BLOCKS = 'p, pre, table, ul, ol, dl, blockquote, img, picture, h1, h2, h3, h4, h5, h6';

/** Words that mark chrome when a class/id starts with them (e.g. `cookieNotice`, `newsletterSignup`). */
const PREFIXES = ['cookie', 'consent', 'newsletter', 'subscribe', 'advert', 'sponsor', 'breadcrumb', 'related', 'social', 'sharebutton'];

const ARIA_CHROME = /\b(share|sharing|cookie|consent|newsletter|subscribe|related|comments|breadcrumb|advert|social|sponsored)/i;

/**
 * Test hooks and component names name a block by its role as plainly as a class would
 * ("related-pins", "closeup-comments", the BBC's "byline-block"), and stay readable where the
 * classes are build hashes ("zI7 iyn").
 */
const TEST_IDS = ['data-testid', 'data-test-id', 'data-component'];

/**
 * An element's id as a name: not a heading's id that spells its own text, the slug docs
 * generators give every section for its permalink ("Sharing state between hooks" is
 * `id="sharing-state-between-hooks"`, no share widget).
 */
function idName(element: Element): string {
  const id = element.getAttribute('id') ?? '';
  if (!id || !/^H[1-6]$/.test(element.tagName)) return id;
  return comparable(id) === comparable(element.textContent ?? '') ? '' : id;
}

function classify(element: Element): Kind | null {
  const testIds = TEST_IDS.map((name) => element.getAttribute(name) ?? '').join(' ');
  const names = `${element.getAttribute('class') ?? ''} ${idName(element)} ${testIds}`.toLowerCase();
  let found: Kind | null = null;
  for (const token of names.split(/\s+/)) {
    if (!token) continue;
    const joined = token.replace(/[-_]/g, '');
    const kind =
      WORDS.get(joined) ??
      (isSignatureName(joined) ? 'byline' : undefined) ??
      token
        .split(/[-_]+/)
        .map((part) => WORDS.get(part))
        .find(Boolean);
    const prefixed = PREFIXES.some((p) => joined.startsWith(p)) ? 'chrome' : undefined;
    const match = kind ?? prefixed;
    if (match === 'comments') return match;
    found ??= match ?? null;
  }
  if (found) return found;
  const aria = element.getAttribute('aria-label');
  return aria && ARIA_CHROME.test(aria) ? 'chrome' : null;
}

/** Schema.org microdata properties holding what readers say of a product: its reviews and their average. */
const REVIEWS = '[itemprop~="review" i], [itemprop~="reviews" i], [itemprop~="aggregateRating" i]';

/** A caption by its tag or its class ("gallery__caption", "slide-caption"). */
const CAPTION = 'figcaption, [class*="caption" i]';
const PICTURES = 'img, picture, figure, video';

/**
 * The captions under `root`. A caption says what a picture shows; an element holding pictures,
 * named "caption" (a gallery's wrapper, a body class of theme settings such as
 * "gallery-caption-below"), is none.
 */
export function captionsIn(root: ParentNode): Element[] {
  return Array.from(root.querySelectorAll(CAPTION)).filter((caption) => !caption.querySelector(PICTURES));
}

/** Characters of a caption that says something (a sentence or so), not a counter or a credit. */
export const CAPTION_TEXT = 20;
/** Captioned photos (captions of {@link CAPTION_TEXT} characters at least) a gallery shows at least. */
const GALLERY_PHOTOS = 3;
/**
 * A gallery's captions are a real share of its text: a sixth of its prose or more (a portfolio's
 * work notes, a museum's object photos). An article's few photo captions are a sliver of it (a
 * thirteenth to a twentieth on the corpus's articles with three or more).
 */
const GALLERY_SHARE = 6;

/**
 * A page without paragraphs (div soup, as portfolio builders write it) has its prose in blocks:
 * its text outside links and captions stands for it.
 */
function divSoupProse(body: HTMLElement, captionText: number): number {
  return Math.max(0, collapseSpace(body.textContent ?? '').length - linkTextLength(body) - captionText);
}

/**
 * A page told in its captions (a photo gallery): captions (figcaptions, or elements named as
 * captions, as carousels have them) hold more text than the paragraphs outside them, or three or
 * more photos carry captions that add up to a real share of the page's prose. Its captions are
 * the content; elsewhere they are boilerplate. A page without paragraphs (div soup) is measured by
 * its text outside links and captions instead.
 */
function isCaptionPage(body: HTMLElement): boolean {
  const found = captionsIn(body);
  const captions = new Set(found);
  const inCaption = (element: Element) => {
    for (let parent = element.parentElement; parent && parent !== body; parent = parent.parentElement)
      if (captions.has(parent)) return true;
    return false;
  };
  let captionText = 0;
  let count = 0;
  for (const caption of found) {
    if (inCaption(caption)) continue;
    const length = (caption.textContent ?? '').trim().length;
    captionText += length;
    if (length >= CAPTION_TEXT) count++;
  }
  if (captionText === 0) return false;
  let prose = 0;
  for (const p of Array.from(body.querySelectorAll('p')))
    if (!captions.has(p) && !inCaption(p)) prose += (p.textContent ?? '').trim().length;
  if (prose === 0) prose = divSoupProse(body, captionText);
  return prose > 0 && (captionText > prose || (count >= GALLERY_PHOTOS && captionText * GALLERY_SHARE > prose));
}

/** Characters a paragraph of the article's own prose has at least; pitches and teasers are shorter. */
const PROSE_PARAGRAPH = 200;

/**
 * Whether an element holds a paragraph of prose (long, few links): inside the article, a wrapper
 * named like chrome around one ("subscriber-preview", "ad-free-content") is the article's.
 */
function holdsProse(element: Element): boolean {
  for (const paragraph of Array.from(element.querySelectorAll('p'))) {
    const text = (paragraph.textContent ?? '').trim();
    if (text.length < PROSE_PARAGRAPH) continue;
    if (linkTextLength(paragraph) < text.length * 0.3) return true;
  }
  return false;
}

function isCallout(element: Element): boolean {
  return element.closest('main, article') !== null && namesCallout(element.getAttribute('class') ?? '');
}

/**
 * The elements that hold the article: the page's main landmark, its longest <article> (not every
 * article: comments are often articles too), and its only h1.
 */
function contentAnchors(body: HTMLElement): Element[] {
  const anchors: Element[] = [];
  const main = body.querySelector('main, [role="main"], [itemprop="articleBody"]');
  if (main) anchors.push(main);
  let longest: Element | undefined;
  let longestText = -1;
  for (const article of Array.from(body.querySelectorAll('article'))) {
    const length = (article.textContent ?? '').length;
    if (length > longestText) [longest, longestText] = [article, length];
  }
  if (longest) anchors.push(longest);
  const headings = Array.from(body.querySelectorAll('h1')).filter((h) => !isSiteNameHeading(h, body.ownerDocument));
  if (headings.length === 1) anchors.push(headings[0]!);
  return anchors;
}

/** Whether an element is, or holds, one of the article's anchors. */
function protectedBy(anchors: Element[]): (element: Element) => boolean {
  return (element) => anchors.some((a) => a === element || element.contains(a));
}

function removeAll(root: ParentNode, selector: string, keep?: (el: Element) => boolean): void {
  for (const element of Array.from(root.querySelectorAll(selector))) {
    if (element.isConnected && !keep?.(element)) element.remove();
  }
}

/**
 * Readability throws away any element whose class or id merely contains "header", "banner",
 * "sidebar"... ("zf-PhotoSetHeader", "gallery-header"). The box around the page's title often
 * holds its intro (a gallery's description under its h1): such a box, holding the page's only
 * h1 and a paragraph of prose, keeps no name for Readability to misread, as the boxes our
 * own rules keep do not. One with no prose (a thread's title and its tags) keeps its name.
 */
function forgetUnlikelyTitleBoxes(anchors: Element[]): void {
  for (const title of anchors.filter((anchor) => anchor.tagName === 'H1')) {
    for (let box: Element | null = title.parentElement; box && box.tagName !== 'BODY'; box = box.parentElement) {
      const name = `${box.getAttribute('class') ?? ''} ${box.getAttribute('id') ?? ''}`;
      if (READABILITY_UNLIKELY.test(name) && holdsProse(box)) forgetName(box);
    }
  }
}

/** Removes what is never content (scripts, styles, forms, dialogs, hidden elements) and nothing else: the whole page's content. */
export function removeNonContent(document: Document): void {
  if (!document.body) return;
  revealHiddenSlides(document.body);
  unwrapHeadingButtons(document.body);
  removeAll(document.body, NOT_CONTENT);
}

/** Readability's own "unlikely candidate" names (matched anywhere in a class or id), from the version installed. */
const READABILITY_UNLIKELY = (Readability.prototype as unknown as { REGEXPS: { unlikelyCandidates: RegExp } }).REGEXPS.unlikelyCandidates;

/**
 * Removes page chrome from the document's body, in place. `shop` is whether the page sells
 * something (`isShopPage`), for a caller that has read it already.
 */
export function removeChrome(
  document: Document,
  data: StructuredData = readStructuredData(document),
  shop: boolean = isShopPage(document, data),
): void {
  const body = document.body;
  if (!body) return;
  // Read before the scripts go (by the caller, or here): a thread's replies are its content, not a comment section.
  const declaredThread = declaresDiscussion(data);
  revealHiddenSlides(body);
  // While the add-to-cart control is there to find the buy box by.
  if (shop) {
    const titles = Array.from(body.querySelectorAll('h1')).filter((h) => !isSiteNameHeading(h, document));
    const title = productTitle(titles, document);
    if (title) pruneBuyBox(body, title);
  }
  // Before the controls go: a newsletter box is known by its email field.
  removeFormBoxes(body, protectedBy(contentAnchors(body)));
  unwrapHeadingButtons(body);
  demoteProseHeadings(body);
  keepChecklistLabels(body);
  removeAll(body, NOT_CONTENT);
  removeAll(body, '[style]', (el) => !HIDDEN_STYLE.test(el.getAttribute('style') ?? ''));
  // Landmarks go, except a note or callout inside the article, and a header that belongs to the
  // article or carries its title.
  const holdsTitle = (el: Element) => Array.from(el.querySelectorAll('h1')).some((h) => !isSiteNameHeading(h, document));
  // A sidebar holding the title holds the work's own description beside its pictures (a portfolio).
  removeAll(body, CHROME_LANDMARKS, (el) => el.tagName === 'ASIDE' && (isCallout(el) || holdsTitle(el)));
  const captionPage = isCaptionPage(body);
  if (!captionPage) removeAll(body, 'figcaption');
  removeAll(body, 'header, [role="banner"]', (el) => el.closest('main, article') !== null || holdsTitle(el));

  const bodyText = (body.textContent ?? '').length || 1;
  const anchors = contentAnchors(body);
  const isProtected = protectedBy(anchors);
  // Each element is classified once, and the thread is judged before the loop below renames
  // anything (its blocks are compared by their class names), only if there are comment boxes.
  const named = Array.from(body.querySelectorAll(['[class], [id], [aria-label]', ...TEST_IDS.map((name) => `[${name}]`)].join(', '))).map(
    (element) => ({
      element,
      kind: classify(element),
    }),
  );
  const commentBoxes = new Set(named.filter((n) => n.kind === 'comments').map((n) => n.element));
  const thread = commentBoxes.size > 0 && (declaredThread || repliesShareThePostTemplate(body, (el) => commentBoxes.has(el)));
  for (const { element, kind } of named) {
    // Inside code, class names are the highlighter's (a "comment" span is the code's own comment).
    if (!kind || !element.isConnected || element.closest('pre, code')) continue;
    if (kind === 'comments' && thread) {
      forgetName(element);
      continue;
    }
    // Kept despite a chrome-like name: drop the name, or Readability's own "unlikely candidate"
    // rule (header, footer, sidebar...) would throw the element away after all.
    if (isProtected(element) || (kind === 'layout' && element.closest('main, article, [role="main"]') !== null)) {
      forgetName(element);
      continue;
    }
    const text = (element.textContent ?? '').length;
    // A guessed wrapper ("has-sidebar", "post-with-ads") may hold the page's text, or, inside the
    // article, its prose ("subscriber-only" around a paywalled article's paragraphs); keep it then.
    const anchor = anchors.find((a) => a !== element && a.contains(element));
    const guessed = kind === 'chrome' || kind === 'layout';
    // A "widget" or "header" wrapper around a paragraph of prose (a gallery's description,
    // where every block of the page is a widget) is a block of the page, not its chrome.
    const prose = (anchor !== undefined || kind === 'layout') && holdsProse(element);
    if (guessed && (text > bodyText * 0.5 || prose)) {
      forgetName(element);
      continue;
    }
    // On a page told in its captions, a caption by its class name is content too.
    if (captionPage && kind === 'byline' && (element.tagName === 'FIGCAPTION' || /caption/i.test(element.getAttribute('class') ?? ''))) {
      forgetName(element);
      continue;
    }
    // Bylines and captions are short; a long block with such a name is probably content. A
    // caption wrapper around an image keeps the image (its caption text is matched on its own).
    if (kind === 'byline' && (text > 400 || element.querySelector('img, picture') !== null)) continue;
    // A post's or card's actions; on a shop page an "actions" box may hold the product's price.
    if (kind === 'controls' && (shop || text > MAX_CONTROLS || element.querySelector(CONTENT_BLOCKS) !== null)) continue;
    element.remove();
  }
  forgetUnlikelyTitleBoxes(anchors);
  removeAll(body, '[rel="author"], [itemprop="author"]');
  // A product's reviews and rating summary, as the page marks them for search engines (the
  // page's own review, a critic's article, is no property of something else and stays). A review
  // plugin marks the post itself as the product's review: one holding most of the page's text is
  // the page's content, not its readers' say.
  const pageText = (body.textContent ?? '').length;
  removeAll(body, REVIEWS, (el) => isProtected(el) || (el.textContent ?? '').length > pageText * 0.5);
  // A heading left standing is judged by its words from here on, not its name: Readability drops
  // any element whose class merely contains "header" or "menu" ("groupheader", "functionsHeader").
  for (const heading of Array.from(
    body.querySelectorAll(
      'h1[class], h2[class], h3[class], h4[class], h5[class], h6[class], h1[id], h2[id], h3[id], h4[id], h5[id], h6[id]',
    ),
  )) {
    if (READABILITY_UNLIKELY.test(`${heading.getAttribute('class') ?? ''} ${heading.getAttribute('id') ?? ''}`)) forgetName(heading);
  }
}
