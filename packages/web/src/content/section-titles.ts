/**
 * Section titles written without a heading element: "<div class="_2MJMLX">Ratings &amp;
 * Reviews</div>" over the reviews, "<span class="title">Highlights</span>" over a feature list.
 * Many shops (and page builders) title their boxes so, with hashed class names; what marks the
 * title is its shape: a short line of bare text that opens its box, or one named or marked as a
 * heading (role="heading", aria-level, a class or id saying title/heading, bold throughout).
 */
import { textOf } from './dom';

/** A title is a few words; a longer line is a sentence or a notice. */
const MAX_TITLE = 60;
/** Inline elements a title's text may be wrapped in (anything else, a link or a control, makes it no title). */
const INLINE = /^(B|STRONG|EM|I|SPAN|SMALL|FONT)$/;
/** Tags that are blocks a title may be written as. */
const TITLE_TAGS = /^(DIV|P|SPAN|DT|STRONG|B|LEGEND)$/;
/** Class or id words that name a title ("section-title", "box__heading", "accordion-header"). */
const TITLE_NAME = /(^|[\s_-])(title|heading|header|headline)([\s_-]|$)/i;

/** Whether all of `element`'s descendants are text or inline wrappers of it. */
function onlyText(element: Element): boolean {
  for (const child of Array.from(element.children)) if (!INLINE.test(child.tagName) || !onlyText(child)) return false;
  return true;
}

/** Whether `element` is marked as a heading: by ARIA, by its name, or bold throughout. */
function markedAsTitle(element: Element): boolean {
  if (element.getAttribute('role') === 'heading' || element.hasAttribute('aria-level')) return true;
  if (TITLE_NAME.test(`${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`)) return true;
  const only = element.children.length === 1 ? element.firstElementChild : null;
  return only !== null && (only.tagName === 'B' || only.tagName === 'STRONG') && textOf(only) === textOf(element);
}

/**
 * Whether `element` is a section's title written as a block of text: short, bare text (no link,
 * no control), no sentence, and either marked as a heading or the first block of its box with
 * the box's content after it.
 */
export function isSectionTitle(element: Element): boolean {
  if (!TITLE_TAGS.test(element.tagName)) return false;
  const text = textOf(element);
  if (!text || text.length > MAX_TITLE || /[.!?。！？]$/u.test(text) || !onlyText(element)) return false;
  if (markedAsTitle(element)) return true;
  return opensItsBox(element) && element.nextElementSibling !== null;
}

/** Whether nothing but whitespace comes before `element` in its parent. */
function opensItsBox(element: Element): boolean {
  const parent = element.parentElement;
  if (!parent) return false;
  for (let node = parent.firstChild; node && node !== element; node = node.nextSibling) {
    if (node.nodeType === 1 || (node.textContent ?? '').trim()) return false;
  }
  return true;
}
