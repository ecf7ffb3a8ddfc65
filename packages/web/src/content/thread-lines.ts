/**
 * Forum chrome that only the thread's shape gives away: a member card around its counts (the
 * name, rank and controls its wrappers add), and short lines said under two posts or more (a
 * member's signature, a control's label left as text).
 */
import { textOf } from './dom';
import { BLOCKS, LINES } from './text';

/** Whether an element of this tag starts a line of its own (as the plain text lays it out). */
const startsLine = (tag: string) => BLOCKS.has(tag) || LINES.has(tag) || tag === 'BR';

/** Text a member card's wrapper may add to its counts: the member's name, rank and a control or two. */
const CARD_EXTRAS = 60;

/**
 * The whole member card around its counts: the wrappers that add only the member's name, rank
 * and controls (a post's text, however short, is a paragraph of its own and stops the climb).
 */
export function wholeCard(stats: Element, root: Element): Element {
  const length = textOf(stats).length;
  let card = stats;
  for (let parent = card.parentElement; parent && parent !== root; parent = parent.parentElement) {
    if (textOf(parent).length - length > CARD_EXTRAS || parent.querySelector('p:not(:empty) ~ p, blockquote, pre')) break;
    if (Array.from(parent.querySelectorAll('p')).some((p) => !stats.contains(p) && textOf(p).length > 20)) break;
    card = parent;
  }
  return card;
}

/** A table that lays out a page (a post's box) rather than data: it holds a table, or a block of prose. */
function isLayoutTable(table: Element): boolean {
  return table.querySelector('table') !== null || Array.from(table.querySelectorAll('div, p')).some((block) => textOf(block).length >= 200);
}

/** Whether `node` is whitespace, or an element with nothing to read. */
function blank(node: Node): boolean {
  return !/\S/.test(node.textContent ?? '') && (node.nodeType !== 1 || !(node as Element).querySelector('img'));
}

/** The one node with something in it that `parent` holds, or null when it holds more or none. */
function onlyContent(parent: Element): Node | null {
  let found: Node | null = null;
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (blank(child)) continue;
    if (found) return null;
    found = child;
  }
  return found;
}

/**
 * A signature's box: a rule drawn above one paragraph, the way forums set a member's signature
 * off their post ("<div><hr><p>Former Honda tech, 14 years.</p></div>"; Readability writes the
 * signature's own div as that paragraph).
 */
function isSignatureBox(element: Element): boolean {
  const only = onlyContent(element);
  return (
    Array.from(element.children).some((child) => child.tagName === 'HR') &&
    only !== null &&
    only.nodeType === 1 &&
    (only as Element).tagName === 'P' &&
    (only as Element).querySelector('p, div, table, ul, ol, pre, img') === null
  );
}

/**
 * Whether `element` is a line of its own: its nearest neighbours with something in them are
 * lines too, or there are none ("In <span>Settings</span>, ..." is a word of a sentence).
 */
function standsAlone(element: Element): boolean {
  const isLine = (node: Node | null) => node === null || (node.nodeType === 1 && startsLine((node as Element).tagName));
  let before = element.previousSibling;
  while (before && blank(before)) before = before.previousSibling;
  let after = element.nextSibling;
  while (after && blank(after)) after = after.nextSibling;
  return isLine(before) && isLine(after);
}

/** Lines longer than this are a post's words even when two posts say them. */
const MAX_REPEATED = 150;

/**
 * In a thread, a short line said twice or more outside the posts' own words: a member's signature
 * under each of their posts ("Sent from the shed"), a control's label left as text. Paragraphs,
 * headings, data tables, lists, quotes and code are left alone.
 */
export function removeRepeatedLines(root: Element, touched: Set<Element>): void {
  const byText = new Map<string, Element[]>();
  // Each table judged once: a forum laid out in one table holds thousands of lines.
  const judged = new Map<Element, boolean>();
  const layoutTables = (table: Element) => {
    let layout = judged.get(table);
    if (layout === undefined) judged.set(table, (layout = isLayoutTable(table)));
    return layout;
  };
  const counted = new Set<Element>();
  // Not paragraphs: a post's own line is one, and a reply may quote it outside a blockquote.
  for (const element of Array.from(root.querySelectorAll('div, span'))) {
    if (element.closest('pre, blockquote')) continue;
    // A signature is one wherever it is (vBulletin 5 writes each post as a list's item).
    if (
      !isSignatureBox(element) &&
      (element.closest('ul, ol') || element.querySelector('p, div, table, ul, ol, pre, h1, h2, h3, h4, h5, h6, img'))
    )
      continue;
    const table = element.closest('table');
    if (table && !layoutTables(table)) continue;
    const text = textOf(element);
    if (text.length < 2 || text.length > MAX_REPEATED) continue;
    // A line is counted once, by its outermost element: "<div><span>line</span></div>" is the
    // div's, and so is a signature's "<div><hr><div>line</div></div>".
    let line: Element = element;
    for (
      let parent = line.parentElement;
      parent && parent !== root && /^(DIV|SPAN|P)$/.test(parent.tagName);
      parent = parent.parentElement
    ) {
      if (onlyContent(parent) !== line) break;
      line = parent;
    }
    if (counted.has(line)) continue;
    counted.add(line);
    // Whole lines only: a word marked up twice inside sentences ("In <span>Settings</span>, ...") is the sentence's.
    if (!standsAlone(line)) continue;
    const same = byText.get(text);
    if (same) same.push(line);
    else byText.set(text, [line]);
  }
  for (const elements of byText.values()) {
    if (elements.length < 2) continue;
    for (const element of elements) {
      if (element.parentElement) touched.add(element.parentElement);
      element.remove();
    }
  }
}

/** The line forums draw between a post and its author's signature (phpBB's and vBulletin's "_________________"). */
const SIGNATURE_DELIMITER = /^_{10,}$/;
/** Characters of a signature after its delimiter at most: a line or two, not a post's paragraphs. */
const MAX_SIGNATURE = 150;

/**
 * Removes a member's signature set off by a row of underscores, the way phpBB and vBulletin
 * print it at the end of the post's box ("…my laser?<br>_________________<br>8" Dob, 10x50s"):
 * the delimiter and the line or two after it to the box's end, when nothing after it is a block
 * of its own (footnotes after a rule are paragraphs or a list, and stay).
 */
export function removeDelimitedSignatures(root: Element, touched: Set<Element>): void {
  const walker = root.ownerDocument.createTreeWalker(root, 4);
  const delimiters: Node[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (SIGNATURE_DELIMITER.test((node.textContent ?? '').trim())) delimiters.push(node);
  }
  for (const delimiter of delimiters) {
    const tail: Node[] = [];
    for (let node = delimiter.nextSibling; node; node = node.nextSibling) tail.push(node);
    const isBlock = (node: Node) => node.nodeType === 1 && startsLine((node as Element).tagName) && (node as Element).tagName !== 'BR';
    const length = tail.reduce((sum, node) => sum + textOf(node).length, 0);
    if (tail.some(isBlock) || length > MAX_SIGNATURE || !delimiter.parentElement) continue;
    touched.add(delimiter.parentElement);
    for (const node of [delimiter, ...tail]) (node as ChildNode).remove();
  }
}
