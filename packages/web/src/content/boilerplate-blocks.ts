/**
 * Takes the boilerplate that sits among the article's own blocks out of the extracted content:
 * teasers and link lists ("Read more", related stories), ad labels, newsletter and paywall
 * pitches, share and follow rows, bylines and datelines, author bios, thread pagination and the
 * heading of a comment or review thread. Judged by what a block says and how much of it is
 * links (the measures of jusText and trafilatura), not by class names, which are often hashes.
 * Only short blocks are judged: a long paragraph is the article's, whatever words it holds.
 */
import { linkTextLength, spacedText, textOf } from './dom';
import { removeCodeGutters, removeSaleRows, trimCaptionCredits } from './block-trims';
import { isIngredientAmount, removeControlLinks, removeRecipeTaxonomy, standsAlone } from './recipe-lines';
import type { PageKind } from './page-kind';
import { removeDelimitedSignatures, removeRepeatedLines, wholeCard } from './thread-lines';
import { isSectionTitle } from './section-titles';
import {
  AD_LABEL,
  AGO,
  AUTHOR_HEADING,
  FOLLOW_INVITATION,
  FOLLOW_PITCH,
  BIO,
  BYLINE,
  BYLINE_NAME,
  CALL_TO_ACTION,
  THREAD_INVITATION,
  THREAD_CLOSED,
  THREAD_STATUS,
  COPYRIGHT,
  COUNTED,
  COUNTER,
  CREDIT,
  CJK_CREDIT,
  DATE,
  DATELINE_LEAD,
  DISCLOSURE,
  MADE_IT_HEADING,
  MORE_FROM_HEADING,
  MEMBER_CARD_LINE,
  MEMBER_JOINED,
  MEMBER_POSTS,
  PAGER,
  PAYWALL_PITCH,
  PRICE,
  PRICE_LABEL,
  PRODUCT_CODE,
  isNutritionPanel,
  isTaxonomyLine,
  isLicenceLine,
  isQuoteAttribution,
  isMemberStats,
  isPostCountLine,
  BACK_TO_TOP,
  MAX_MEMBER_CARD,
  isRatingTally,
  POST_CONTROL,
  NUTRITION_NOTE,
  RATING,
  RECIPE_CONTROL,
  SELLER_NOTICE,
  SENT_FROM,
  SHARE,
  SHOP_NOTICE,
  SHOP_SECTION_HEADING,
  STEP_LABEL,
  SUBSCRIBE,
  TEASER_LABEL,
  USAGE_TERMS,
  THREAD_HEADING,
  WHO_IS_ONLINE,
  OTHER_VERSION_BANNER,
  OWN_REFERENCES_HEADING,
  TOC_LABEL,
} from './boilerplate-cues';

const CANDIDATES = 'p, div, section, aside, header, footer, ul, ol, dl, blockquote, details, summary, span, cite, h2, h3, h4, h5, h6';
const HEADING = /^H[1-6]$/;
/** Blocks that are never boilerplate here: code, tables and the title. */
const KEEP_INSIDE = 'pre, table, h1';
/** The longest block any rule below judges (an author bio). */
const MAX_JUDGED = 400;
/** Reasons too slight to take a picture away with the text, or to act on a page of little prose. */
const SLIGHT = new Set(['credit', 'counter', 'dateline', 'no words', 'byline']);
/** Characters of prose (text outside links) that make the content an article. */
const MIN_PROSE = 400;
/** Chinese, Japanese and Korean characters, which say in one what Latin script says in about three. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Length of `text` in Latin-script characters' worth. */
function proseLength(text: string): number {
  return text.length + 2 * (text.match(CJK)?.length ?? 0);
}
const SLIDE_COUNTER = /^\d+\s*(\/|of|von|de|sur|di)\s*\d+$/u;
/** A link list goes when the content has this many times its length of prose. */
const LIST_TO_PROSE = 4;

/**
 * A photo's number leading its caption ("<span>3</span>Children play hockey..."): the gallery's
 * running count, glued to the caption's first word once the text is flattened.
 */
function isCaptionNumber(span: Element, text: string): boolean {
  const caption = span.parentElement;
  if (caption?.tagName !== 'FIGCAPTION' || !/^\d{1,3}\.?$/.test(text)) return false;
  const first = Array.from(caption.childNodes).find((node) => (node.textContent ?? '').trim() !== '');
  return first === span && textOf(caption).length > text.length + 20;
}

/** A recipe's servings and yield: its card's meta line, not a spec (times have words: "10 mins"). */
const RECIPE_META = /^(servings|serves|yield|makes|portions?|portionen|personnes|porciones|porzioni)\b/iu;

/**
 * The value of a label/value row laid out in blocks, as spec sheets are
 * (`<div><div>Aspect Ratio</div><div>16:9</div></div>`): a number that has its label beside it.
 */
function isLabelledValue(element: Element): boolean {
  const label = element.previousElementSibling;
  // A row of two: the label and the value (read from the neighbours: a long row's child list costs a walk).
  if (!label || label.previousElementSibling || element.nextElementSibling || label.tagName === 'A') return false;
  const name = textOf(label);
  return name.length > 0 && name.length <= 40 && /\p{L}/u.test(name) && linkTextLength(label) === 0 && !RECIPE_META.test(name);
}

/** A slide's place in a carousel ("1 of 10", "3/12"), outside code. */
function isSlideCounter(element: Element, text: string): boolean {
  return SLIDE_COUNTER.test(text) && !element.closest('pre, code');
}

/** How deep a code block may sit in the block after a line that introduces it (`<div class="highlight"><pre>`). */
const CODE_WRAPPER_DEPTH = 3;

/**
 * A line ending in a colon right before a code block introduces it ("...writes them to a
 * calendar file your app can subscribe to:"): the article's prose, whatever words it holds.
 */
function introducesCode(element: Element, text: string): boolean {
  if (!text.endsWith(':')) return false;
  let next = element.nextElementSibling;
  for (let depth = 0; next && depth <= CODE_WRAPPER_DEPTH; depth++, next = next.firstElementChild) if (next.tagName === 'PRE') return true;
  return false;
}

/** Whether `element` is the first block after a heading, the text of the section the heading opens. */
function underHeading(element: Element): boolean {
  const heading = element.previousElementSibling;
  return heading !== null && HEADING.test(heading.tagName);
}

/** Whether nothing but the next section's heading follows `element` in its box. */
function titlesNothing(element: Element): boolean {
  const next = element.nextElementSibling;
  return !next || HEADING.test(next.tagName);
}

/** How many boxes a list may sit in, each its box's first block, below the heading that titles it. */
const LIST_BOX_DEPTH = 2;

/**
 * A list titled as the document's own references ("See also", "Next steps"): docs and reference
 * pages end with links to the pages a reader goes to next, part of what the page says (a
 * "Related articles" list is the site's, and goes).
 */
function underOwnReferences(list: Element): boolean {
  let box: Element = list;
  for (let depth = 0; depth <= LIST_BOX_DEPTH; depth++) {
    const heading = box.previousElementSibling;
    if (heading) return HEADING.test(heading.tagName) && OWN_REFERENCES_HEADING.test(textOf(heading));
    if (!box.parentElement) return false;
    box = box.parentElement;
  }
  return false;
}

/** A step's number as a list marker ("1.", "2)"); a bare "3" may be an ingredient's amount. */
const STEP_NUMBER = /^\d{1,3}[.)]$/;

/**
 * A numbered list item's number written into the item ("<li><span>1.</span><span>Chop the
 * onions</span></li>"): the ordered list numbers its items itself, and the text reads "1.Chop".
 * A label in words ("Step 1") stays: plain text has no list numbers of its own.
 */
function isStepNumber(element: Element, text: string): boolean {
  const item = element.parentElement;
  if (item?.tagName !== 'LI' || item.parentElement?.tagName !== 'OL' || item.firstElementChild !== element) return false;
  if (textOf(item).length <= text.length + 1) return false;
  if (STEP_NUMBER.test(text)) return true;
  // A badge: nothing between it and the step's text, as an amount has its space before its unit.
  const glued = element.nextSibling?.nodeType === 1;
  return glued && /^\d{1,3}$/.test(text) && isItemPosition(item, Number(text));
}

/**
 * Whether `item` is the `position`th item of its list, from 1. A bare number leading an ordered
 * list's item, glued to the text after it, is the step's own number when it is the item's place
 * ("<li><span>3</span><span>Add the flour</span>"): an amount ("3 eggs") is that only by chance.
 * Counts back no further than `position` items: a long list costs no walk per item.
 */
function isItemPosition(item: Element, position: number): boolean {
  let before = 0;
  for (let sibling = item.previousElementSibling; sibling && before < position; sibling = sibling.previousElementSibling)
    if (sibling.tagName === 'LI') before++;
  return before === position - 1;
}

/** A step's number drawn as a badge before its label ("<div class="avatar">1</div> Step 1"). */
const LEADING_NUMBER = /^\d{1,2}\s*/;
/** Characters of the step's text after its label. */
const STEP_TEXT = 20;

/** Whether the step's text follows `label`: its next sibling, or its parent's when the label is alone in a title box. */
function stepFollows(label: Element): boolean {
  for (let node: Element | null = label; node && textOf(node).length < STEP_TEXT; node = node.parentElement) {
    const next = node.nextElementSibling;
    if (next) return textOf(next).length >= STEP_TEXT;
  }
  return false;
}

/** A list whose items are (almost) all links: related stories, "more from", tag and topic lists. */
function isLinkList(element: Element): boolean {
  if (element.tagName !== 'UL' && element.tagName !== 'OL') return false;
  const items = Array.from(element.children).filter((child) => child.tagName === 'LI' && textOf(child));
  if (items.length < 2) return false;
  const linked = items.filter((item) => linkTextLength(item) >= 0.8 * textOf(item).length);
  return linked.length >= 0.8 * items.length;
}

/**
 * A forum post's member card by its counts: a line that is the post count and a rank at most
 * ("Member Posts: 87"), a list of the card's short lines one of which is ("Newbie | Posts: 14 |
 * Logged"), or a join date with a post count ("oldgreaser · Senior Member · Posts: 2184 ·
 * Joined: Mar 2010").
 */
function isMemberCardLine(element: Element, text: string, list: boolean, page: PageKind): boolean {
  if (MEMBER_JOINED.test(text) && MEMBER_POSTS.test(text)) return true;
  if (!list) return isPostCountLine(text);
  const items = Array.from(element.children).map(textOf);
  if (!items.some(isPostCountLine) || !items.every((item) => item.length <= MAX_CARD_ITEM)) return false;
  // A plan's allowances are short lines with a count of posts too: a card says more of its member.
  return page.thread === true || items.some((item) => MEMBER_CARD_LINE.test(item) || MEMBER_JOINED.test(item));
}
/** Characters of a member card's line at most (its rank, its count, a short blurb). */
const MAX_CARD_ITEM = 60;

export type { PageKind } from './page-kind';

/**
 * Why a heading (or a title written as a block) saying `text` opens boilerplate: "3 comments",
 * "Leave a reply", "Customer reviews (2)" open a thread; "You may also like" a shop's section. A
 * bare "Reviews" may be a section of the article, but not on a page about something readers
 * review (a product, a recipe).
 */
function sectionHeadingReason(text: string, page: PageKind): string | null {
  if (MORE_FROM_HEADING.test(text)) return 'more from';
  if (THREAD_HEADING.test(text) && (/\d|\s/.test(text) || page.reviewed === true)) return 'thread heading';
  if (page.reviewed === true && !page.shop && MADE_IT_HEADING.test(text)) return 'thread heading';
  return SHOP_SECTION_HEADING.test(text) ? 'shop section' : null;
}

/**
 * Why `element` is boilerplate, or null. `articleText` is the length of the content's text
 * outside links: a link list is only boilerplate next to much more prose (on a hub page the
 * list of links is the content).
 */
export function boilerplateReason(element: Element, articleText = Infinity, page: PageKind = {}): string | null {
  const tag = element.tagName;
  const list = tag === 'UL' || tag === 'OL';
  const text = textOf(element);
  const length = text.length;
  // Cheap tests first: long blocks (but lists) are never judged, so most of the page costs one read.
  if (!text || (length >= MAX_JUDGED && !list)) return null;
  if (length < 12 && isIngredientAmount(element, text, page) && !isStepNumber(element, text)) return null;
  // The text with its cells apart, read once and only when a rule asks for it.
  let cellText: string | undefined;
  const cells = () => (cellText ??= spacedText(element));
  // A recipe's nutrition panel, a table or not (beside a product it is the product's spec: kept).
  const nutrition =
    page.reviewed === true &&
    !page.shop &&
    length < MAX_JUDGED &&
    /\d/.test(text) &&
    !element.querySelector('pre, h1') &&
    isNutritionPanel(cells());
  if (nutrition) return 'nutrition';
  // A member card may lay its counts out in a table of their own ("3 主题 | 120 帖子 | 400 积分").
  // (Its cells never read shorter than its text: a long block is no card, unread.)
  if (!list && length < MAX_MEMBER_CARD && isMemberStats(cells()) && !element.querySelector('pre, h1')) return 'member card';
  // Its count line ("Member Posts: 87"), a list of its lines holding one, or its join date with
  // its count ("Joined: Feb 2016 Posts: 212"), as spans too: the card is the count's wrappers.
  if (length < MAX_MEMBER_CARD && isMemberCardLine(element, text, list, page) && !element.querySelector('pre, h1')) return 'member card';
  if (element.querySelector(KEEP_INSIDE)) return null;
  // A table cell's only block is the cell's value ("17", "<a>240 mm</a>"): the table's, like the cell.
  const parent = element.parentElement;
  if (parent && (parent.tagName === 'TD' || parent.tagName === 'TH') && parent.children.length === 1) return null;
  // A price or a bit of code is what the block is for ("Pro subscription: $29/month"), unless it
  // is a paywall's pitch ("Subscribe now for unlimited access from £1 a week").
  // A shop's notice may quote a price too ("Free delivery on orders over £50").
  const spaced = length < MAX_JUDGED && /\d|\p{L}\p{Lu}/u.test(text) ? cells() : text;
  const shopNotice = length < 60 && (SHOP_NOTICE.test(spaced) || (page.shop === true && SELLER_NOTICE.test(spaced)));
  if ((PRICE.test(text) && !PAYWALL_PITCH.test(text) && !shopNotice) || element.querySelector('code, kbd')) return null;
  // A quoted post's attribution line, in the quote's box; elsewhere a <cite> names a work.
  const attribution = length < 150 && isQuoteAttribution(text) && element.closest('blockquote') !== null;
  if (tag === 'CITE') return attribution ? 'quote attribution' : null;
  if (attribution && tag !== 'BLOCKQUOTE') return 'quote attribution';
  if (isStepNumber(element, text)) return 'step number';
  // A step's bare number label over its text in an ordered list's item ("<li><h3>Step 1</h3><p>..."):
  // the list numbers the steps already. Elsewhere ("<h3>Step 1</h3>" over a paragraph) the label is
  // the only number the step has, and stays.
  if (length < 12 && (tag === 'SPAN' || HEADING.test(tag)) && STEP_LABEL.test(text) && element.closest('ol > li') !== null)
    return 'step label';
  // On a recipe's page every step's label goes, the step's text after it: a recipe's steps are
  // read in order, numbered or not (a tutorial's "Step 1" heading, elsewhere, stays).
  if (page.reviewed === true && !page.shop && length < 16 && STEP_LABEL.test(text.replace(LEADING_NUMBER, '')) && stepFollows(element))
    return 'step label';
  // A recipe card's control labels, on a page about something readers cook or buy.
  // A value after its label ("Optical zoom: <span>3x</span>", "Condition: <span>New</span>") is the product's.
  const labelled = () =>
    isLabelledValue(element) || /:\s*$/.test(element.previousSibling?.textContent ?? '') || element.closest('dd, td') !== null;
  if (page.reviewed === true && length < 60 && RECIPE_CONTROL.test(text) && !labelled()) return 'recipe control';
  // A shop's price labels, badges and item codes, spans or blocks.
  if (page.shop === true && length < 40 && ((PRICE_LABEL.test(text) && !labelled()) || PRODUCT_CODE.test(spaced))) return 'shop label';
  // A section's title written as a block ("<div class="_2MJMLX">Ratings &amp; Reviews</div>"): on a page
  // about something readers buy or review it opens its section as a heading would.
  const titled = (page.shop === true || page.reviewed === true) && length < 60 && !HEADING.test(tag) && isSectionTitle(element);
  if (titled) {
    const reason = sectionHeadingReason(text, page);
    if (reason) return reason;
  }
  // Spans are many (code and ingredient amounts are made of them): only a slide counter ("1/5")
  // and a rating's line ("A star rating of 4.7 out of 5.") go.
  if (tag === 'SPAN') {
    // A shop's notices are often spans of the buy box ("<span>Ships from United States.</span>").
    if (page.shop === true && shopNotice) return 'shop notice';
    if (isSlideCounter(element, text) || isCaptionNumber(element, text)) return 'counter';
    // "4.9 from 86 votes" in a recipe card's meta row of spans; in a sentence ("finished with
    // <span>38 points</span> and nine assists") the count is the sentence's.
    if (!standsAlone(element)) return null;
    if (length < 60 && COUNTER.test(text)) return 'counter';
    return isRatingTally(text, page.shop) ? 'rating' : null;
  }
  // "About the author" over the box, as a heading or a paragraph styled as one.
  if (length < 40 && AUTHOR_HEADING.test(text)) return 'author box';
  if (HEADING.test(tag)) return length < 60 ? sectionHeadingReason(text, page) : null;
  if (AD_LABEL.test(text)) return 'ad label';
  // "You might also like" in a paragraph of its own, standing in for a heading over product tiles.
  if (page.shop === true && length < 60 && SHOP_SECTION_HEADING.test(text)) return 'shop label';
  if (shopNotice) return 'shop notice';
  // Counters and vote tallies alone ("3 / 12", "277"): a block of the article has words. A price
  // ("£12.00") is no counter: it is what a watch on a product page is for.
  // Counts written short ("3.1k", "1.4K") are numbers too.
  // (A lower-case "m" is a metre: "85m²" is an area, no count.)
  const unabbreviated = text.replace(/(\d)[kKM](?![\p{L}\p{N}²³])/gu, '$1');
  if (length < 20 && !/\p{L}/u.test(unabbreviated) && !PRICE.test(text) && !isLabelledValue(element)) return 'no words';
  // A slide's place in a carousel ("1 of 10"), however it is wrapped.
  if (isSlideCounter(element, text)) return 'counter';
  // Only tallies ("[–] 288 points (2 children)", "12 replies · 3 views"): a line of the thread's chrome.
  if (length < 80 && /\d/.test(text) && !/\p{L}/u.test(text.replace(COUNTED, '')) && !isLabelledValue(element)) return 'counter';
  // A list is judged as a list: an item may quote a copyright line, the list is no footer for it.
  if (!list && length < 200 && COPYRIGHT.test(text)) return 'copyright';
  // Under a heading of its own ("<h2>License</h2><p>License: CC BY 4.0</p>") it is a README's or a
  // dataset's section, what the document says of itself.
  if (!list && length < 120 && isLicenceLine(cells()) && !underHeading(element)) return 'licence';
  // The nutrition panel's small print.
  if (length < 300 && NUTRITION_NOTE.test(text)) return 'nutrition';
  if (list) return isLinkList(element) && articleText >= LIST_TO_PROSE * length && !underOwnReferences(element) ? 'link list' : null;
  if (tag === 'DL') return null;
  const links = element.querySelectorAll('a').length;
  const linkDensity = linkTextLength(element) / length;
  // Almost all link: a teaser ("<a>Other story</a> 12 March"); "Next: <a>the second post</a>" stays.
  if (length < 200 && linkDensity >= 0.8) return 'teaser';
  if (length < 200 && links > 0 && TEASER_LABEL.test(text)) return 'teaser';
  if (length < 300 && SUBSCRIBE.test(text) && !isPlainProse(element, text) && !introducesCode(element, text)) return 'subscription pitch';
  if (length < 200 && (FOLLOW_PITCH.test(text) || FOLLOW_INVITATION.test(text))) return 'subscription pitch';
  if (length < 300 && DISCLOSURE.test(text)) return 'disclosure';
  if (length < 250 && OTHER_VERSION_BANNER.test(text)) return 'version banner';
  // A table of contents' label ("On this page", "Contents") left after its list of links went
  // (blocks are judged last first): nothing, or the next section's heading, follows it. Over a
  // section's own text it is that section's title.
  if (length < 30 && TOC_LABEL.test(text) && titlesNothing(element)) return 'toc label';
  if (length < 200 && CALL_TO_ACTION.test(text)) return 'call to action';
  if (length < 60 && THREAD_INVITATION.test(text)) return 'call to action';
  if (length < 10 && POST_CONTROL.test(text)) return 'post control';
  if (length < 40 && THREAD_STATUS.test(text)) return 'thread status';
  if (page.thread === true && length < 200 && THREAD_CLOSED.test(text)) return 'thread status';
  if (length < 60 && COUNTER.test(text)) return 'counter';
  if (isRatingTally(text, page.shop)) return 'rating';
  if (length < 120 && RATING.test(text)) return 'rating';
  if (length < 120 && (CREDIT.test(text) || USAGE_TERMS.test(text) || CJK_CREDIT.test(text))) return 'credit';
  if (length < 200 && isTaxonomyLine(text, linkDensity * length, page.reviewed === true && !page.shop)) return 'taxonomy';
  if (length < 400 && BIO.test(text)) return 'author bio';
  if (length < 150 && (BYLINE_NAME.test(text) || BYLINE.test(text))) return 'byline';
  // Read with the cells apart: "5 images" and "April 21, 2024" side by side are no word "imagesApril".
  const dated = length < 150 ? cells() : text;
  const words = text.split(' ').length;
  if (words <= 12 && (DATE.test(dated) || AGO.test(dated) || element.querySelector('time') !== null)) return 'dateline';
  if (length < 50 && DATELINE_LEAD.test(text)) return 'dateline';
  // A social handle counts as a link: "Tried it? Tag us on Instagram @kitchen".
  if (length < 120 && SHARE.test(text) && (links >= 2 || linkDensity >= 0.5 || /(^|\s)@\w{2,}/.test(text))) return 'share block';
  if (length < 60 && PAGER.test(text)) return 'pager';
  if (length < 150 && SENT_FROM.test(text)) return 'signature';
  if (length < 200 && WHO_IS_ONLINE.test(text)) return 'who is online';
  return null;
}

/** Characters from which a paragraph of two sentences or more reads as prose, not as a pitch. */
const PROSE_LENGTH = 150;

/**
 * Whether a block is plain prose: two sentences or more, long enough, with no link, button or
 * field to act on. A pitch asks the reader to do something and gives the means ("Subscribe now",
 * a sign-up field); a news paragraph that mentions a subscription ("een gratis abonnement op een
 * deelfiets") gives none.
 */
function isPlainProse(element: Element, text: string): boolean {
  if (text.length < PROSE_LENGTH || element.querySelector('a, button, input, select, form') !== null) return false;
  return (text.match(/[.!?。！？](\s|$)/gu)?.length ?? 0) >= 2;
}

/** Whether all that is left of `element` is headings (a "Related stories" title without its list). */
function onlyHeadingsLeft(element: Element): boolean {
  if (element.querySelector('img, pre, table')) return false;
  const text = textOf(element);
  if (!text) return true;
  const headings = Array.from(element.querySelectorAll('h1, h2, h3, h4, h5, h6'));
  return headings.length > 0 && !headings.some((h) => h.tagName === 'H1') && headings.map(textOf).join(' ').length >= text.length - 1;
}

/** Characters that take no room: a zero-width space, joiners, a byte-order mark. */
const ZERO_WIDTH = /[\u200b-\u200d\ufeff]/gu;

/** A heading's permalink: an in-page link marked "¶", "#", "§" or nothing. */
export function isPermalink(anchor: Element): boolean {
  return (
    (anchor.getAttribute('href') ?? '').startsWith('#') &&
    // VitePress writes its permalink as a zero-width space.
    /^[¶#§🔗]?$/u.test(textOf(anchor).replace(ZERO_WIDTH, '')) &&
    anchor.closest('h1, h2, h3, h4, h5, h6') !== null
  );
}

/** A link back to the page's top ("Top", "Back to top", "Nach oben"): in-page, and so worded. */
function isBackToTop(anchor: Element): boolean {
  return BACK_TO_TOP.test(textOf(anchor));
}

/** A picture worth keeping: one that says what it shows, or a picture or video element (an unlabelled icon is none). */
const PICTURE = 'img[alt]:not([alt=""]), picture, video';

/**
 * What follows `heading` in its section up to the next heading of its rank or higher (a
 * paragraph styled as a heading is outranked by any heading): the box it titles, not the
 * article's sections after it.
 */
function sectionAfter(heading: Element): ChildNode[] {
  const rank = HEADING.test(heading.tagName) ? Number(heading.tagName[1]) : 7;
  const outranks = Array.from({ length: Math.min(rank, 6) }, (_, i) => `h${i + 1}`).join(', ');
  const section: ChildNode[] = [];
  for (let next = heading.nextSibling; next; next = next.nextSibling) {
    if (next.nodeType === 1 && ((next as Element).matches(outranks) || (next as Element).querySelector(outranks))) break;
    section.push(next);
  }
  return section;
}

/** Removes what `heading` titles in its section (see sectionAfter). */
function removeUntilHeading(heading: Element): void {
  for (const node of sectionAfter(heading)) node.remove();
}

/** Share of a teaser section's text in its links. */
const TEASER_LINKS = 0.8;

/**
 * Whether a "More ... from/by ..." heading titles teasers: links to other pages or pictures that
 * link to them ("More artwork by Mira Tanaka" over linked tiles), or nothing left (its list went
 * first). A story's "More photos from the scene" titles its own figures and text, which stay.
 */
function titlesTeasers(heading: Element): boolean {
  const summary = heading.closest('summary');
  const section =
    summary?.parentElement?.tagName === 'DETAILS'
      ? Array.from(summary.parentElement.childNodes).filter((node) => node !== summary)
      : sectionAfter(heading);
  let text = 0;
  let linked = 0;
  for (const node of section) {
    text += textOf(node).length;
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    linked += element.tagName === 'A' ? textOf(element).length : linkTextLength(element);
    const pictures = element.matches(PICTURE) ? [element] : Array.from(element.querySelectorAll(PICTURE));
    if (pictures.some((picture) => picture.closest('a') === null)) return false;
  }
  return linked >= TEASER_LINKS * text;
}

/**
 * Removes a heading with the section it opens: its disclosure widget when the heading is a
 * <summary>'s, else the siblings after it up to the next heading of its rank or higher.
 */
function removeSection(heading: Element, touched: Set<Element>): void {
  const details = heading.closest('summary')?.parentElement;
  if (details?.tagName === 'DETAILS') {
    if (details.parentElement) touched.add(details.parentElement);
    details.remove();
    return;
  }
  removeUntilHeading(heading);
  if (heading.parentElement) touched.add(heading.parentElement);
  heading.remove();
}

/** Pixels of an image's declared width and height at most that make it an icon ("Post" 12x9 beside a forum post's date). */
const ICON_SIZE = 24;

/** Whether `element` holds a picture worth keeping, not only icons declared as small as one. */
function holdsPicture(element: Element): boolean {
  const size = (image: Element, name: string) => Number(image.getAttribute(name) ?? NaN);
  return Array.from(element.querySelectorAll(PICTURE)).some(
    (picture) => picture.tagName !== 'IMG' || !(size(picture, 'width') <= ICON_SIZE && size(picture, 'height') <= ICON_SIZE),
  );
}

/** Ancestors looked at for the picture a short line belongs to (caption box, tile). */
const PICTURE_BOX_DEPTH = 2;
/** Text a picture's box holds at most: a caption and its line, not a section of an article. */
const PICTURE_BOX_TEXT = 300;

/** Characters of caption, outside links, that make a box with a picture a photo's (an avatar's has a name link). */
const CAPTION_TEXT = 40;

/** Nodes looked at to tell a box is small: a box of thousands of nodes is no caption's. */
const PICTURE_BOX_NODES = 1000;

/**
 * Whether `box` holds more than `limit` characters of text (whitespace collapsed), looking at no
 * more of it than it must: the box may be the whole article, asked about once per dateline in it.
 */
function holdsMoreText(box: Element, limit: number): boolean {
  let length = 0;
  let nodes = 0;
  const stack: Node[] = [box];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (++nodes > PICTURE_BOX_NODES) return true;
    if (node.nodeType === 3) {
      length += textOf(node).length;
      if (length > limit) return true;
      continue;
    }
    for (let child = node.lastChild; child; child = child.previousSibling) stack.push(child);
  }
  return false;
}

/**
 * Whether `element` sits in a small box with a picture and its caption, as the line under a
 * photo does (a user card's date sits by an avatar and a linked name, no caption). The box's
 * size is told first, cheaply: the article itself is no picture's box, however many dates it has.
 */
function besidePicture(element: Element): boolean {
  let box = element.parentElement;
  for (let depth = 0; box && depth < PICTURE_BOX_DEPTH; depth++, box = box.parentElement) {
    if (holdsMoreText(box, PICTURE_BOX_TEXT)) return false;
    if (!box.querySelector(PICTURE)) continue;
    const text = textOf(box).length;
    return text <= PICTURE_BOX_TEXT && text - textOf(element).length - linkTextLength(box) >= CAPTION_TEXT;
  }
  return false;
}

/** The content's last element, however deeply nested. */
function lastLeaf(root: Element): Element | null {
  let last = root.lastElementChild;
  while (last?.lastElementChild && !HEADING.test(last.tagName)) last = last.lastElementChild;
  return last;
}

/**
 * Removes boilerplate blocks from `root` (in place), innermost first. A wrapper left holding
 * nothing, or only the heading of what was removed, goes too, and so do headings the content
 * ends with ("Your answer" over a removed form, "More from us" over a removed list). A shop's
 * sections ("Shipping and returns", "You may also like") only go on a `shop` page: a guide's
 * "Shipping and returns" section is the guide's. On a `thread` page (a Q&A page whose answers
 * are its content) a "4 replies" heading goes, but not the replies after it.
 */
export function pruneBoilerplate(root: Element, page: PageKind = {}): void {
  const touched = new Set<Element>();
  removeCodeGutters(root);
  trimCaptionCredits(root);
  if (page.shop) removeSaleRows(root);
  if (page.reviewed && !page.shop) {
    removeControlLinks(root, touched);
    removeRecipeTaxonomy(root);
  }
  // In-page links that say nothing and clutter the markdown: heading permalinks ("¶", "#"), and
  // the links back to the page's top a forum puts under each post (their boxes go with them).
  for (const anchor of Array.from(root.querySelectorAll('a[href^="#"]'))) {
    if (isPermalink(anchor)) anchor.remove();
    else if (isBackToTop(anchor)) {
      if (anchor.parentElement) touched.add(anchor.parentElement);
      anchor.remove();
    }
  }
  removeDelimitedSignatures(root, touched);
  const articleText = proseLength(textOf(root)) - linkTextLength(root);
  const candidates = Array.from(root.querySelectorAll(CANDIDATES)).reverse();
  for (const element of candidates) {
    if (!root.contains(element)) continue;
    const reason = boilerplateReason(element, articleText, page);
    if (!reason) continue;
    // A credit or a date beside a picture: the picture stays (its alt text is content). On a page
    // of little prose (opening hours, an events list, a price list) a short date or number may be
    // the very thing a watch follows: slight reasons only count beside an article.
    if (SLIGHT.has(reason) && (articleText < MIN_PROSE || holdsPicture(element))) continue;
    // A place and date under a photo in a gallery's tile ("Dunkeld, November 2023") says when
    // and where the picture was taken: the caption's, not the article's dateline.
    if (reason === 'dateline' && besidePicture(element)) continue;
    if (reason === 'thread heading' && !page.thread) {
      // The thread is the heading and what follows it in its section.
      while (element.nextSibling) element.nextSibling.remove();
    }
    if (reason === 'more from' && !titlesTeasers(element)) continue;
    if (reason === 'author box' || reason === 'more from' || (reason === 'shop section' && page.shop)) {
      removeSection(element, touched);
      continue;
    }
    if (reason === 'shop section') continue;
    const target = reason === 'member card' ? wholeCard(element, root) : element;
    if (target.parentElement) touched.add(target.parentElement);
    target.remove();
  }
  if (page.thread) removeRepeatedLines(root, touched);
  for (const start of touched) {
    let parent: Element | null = start;
    while (parent && parent !== root && root.contains(parent) && onlyHeadingsLeft(parent)) {
      const next: Element | null = parent.parentElement;
      parent.remove();
      parent = next;
    }
  }
  for (let last = lastLeaf(root); last && HEADING.test(last.tagName) && last.tagName !== 'H1'; last = lastLeaf(root)) {
    last.remove();
  }
}
