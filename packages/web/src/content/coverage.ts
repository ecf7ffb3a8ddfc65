/**
 * Whether an extracted text holds a passage the page says about itself elsewhere (its JSON-LD
 * articleBody or description): a cross-check that the chosen container is the whole article,
 * not one part of it (a recipe's ingredients and steps without its intro).
 */

import { forgetName } from './dom';

/** Characters of a passage compared: enough to be one sentence of it, not a stock phrase. */
const PROBE = 80;
/** Passages shorter than this say too little to check anything against. */
const MIN_PASSAGE = 60;

/** Letters and digits only, lower-cased: markup, quotes and spacing differ between the two copies. */
export function comparable(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The probe of `passage` (its start, which sites never cut) to look for in a comparable text,
 * or '' when the passage is too short to tell.
 */
export function probeOf(passage: string): string {
  const text = comparable(passage);
  return text.length < MIN_PASSAGE ? '' : text.slice(0, PROBE);
}

/** Blocks that hold a paragraph's text themselves. */
const TEXT_BLOCKS = 'p, dd, blockquote';

/** A copy put back beside Readability's content, named as its content is: without class, id and style. */
function withoutNames(block: Element): Element {
  for (const element of [block, ...Array.from(block.querySelectorAll('[class], [id], [style]'))]) {
    forgetName(element);
    element.removeAttribute('style');
  }
  return block;
}

/**
 * Copies of the page's paragraphs that hold the passages `probes` stand for (taken before
 * Readability changes the document). Only paragraphs are read, each once: no nested re-reading.
 */
export function quotedBlocks(document: Document, probes: readonly string[]): Element[] {
  if (probes.length === 0 || !document.body) return [];
  const found: Element[] = [];
  const left = new Set(probes);
  for (const block of Array.from(document.body.querySelectorAll(TEXT_BLOCKS))) {
    const text = comparable(block.textContent ?? '');
    for (const probe of left) {
      if (!text.includes(probe)) continue;
      found.push(block.cloneNode(true) as Element);
      left.delete(probe);
    }
    if (left.size === 0) break;
  }
  return found;
}

/**
 * Puts back at the start of `root` (where intros and deks stand) each quoted block the content
 * lacks: Readability chose the body of a page whose intro sits apart from it.
 */
export function restoreQuotedBlocks(root: Element, blocks: readonly Element[]): void {
  if (blocks.length === 0) return;
  let have = comparable(root.textContent ?? '');
  for (const block of [...blocks].reverse()) {
    const text = comparable(block.textContent ?? '');
    if (have.includes(text.slice(0, PROBE))) continue;
    root.insertBefore(withoutNames(block), root.firstChild);
    // Two hints may name one paragraph (a dek that is the JSON-LD description too): it goes back once.
    have += text;
  }
}

/** Blocks that hold a post's lines in Readability's content. */
const LEAF_BLOCKS = 'p, li, td, pre, blockquote, dd, div';

/**
 * Puts back the thread's posts (copies taken before Readability, in page order) that the content
 * lacks, each after the post before it: Readability chose one answer's box, or cleaned away a
 * short reply between two it kept, and those are the thread too. Posts before the first one the
 * content holds (a sidebar's blurb made by the same template) are not brought back.
 */
export function restoreMissingPosts(root: Element, posts: readonly Element[]): void {
  if (posts.length === 0) return;
  const have = comparable(root.textContent ?? '');
  const leaves = Array.from(root.querySelectorAll(LEAF_BLOCKS)).filter((leaf) => !leaf.querySelector(LEAF_BLOCKS));
  const leafText = leaves.map((leaf) => comparable(leaf.textContent ?? ''));
  let cursor = 0;
  let anchor: Element | null = null;
  for (const post of posts) {
    const text = comparable(post.textContent ?? '');
    if (!text) continue;
    // Held if its start or its end is there: a quoted post's attribution or a signature may have been cut.
    if (have.includes(text.slice(0, PROBE)) || have.includes(text.slice(-PROBE))) {
      // Its last line, looked for from the previous post's on: where the next missing post goes.
      const tail = text.slice(-30);
      for (let index = cursor; index < leaves.length; index++) {
        const line = leafText[index]!;
        if (line.includes(tail) || (line.length >= 8 && text.endsWith(line))) {
          anchor = leaves[index]!.closest('table, ul, ol, dl') ?? leaves[index]!;
          cursor = index + 1;
          break;
        }
      }
    } else if (anchor) {
      const copy = withoutNames(post);
      anchor.after(copy);
      anchor = copy;
    }
  }
}

/** A standfirst is a sentence or two: what a page's meta description quotes whole. */
const MIN_STANDFIRST = 25;
const MAX_STANDFIRST = 400;
/** Blocks after the h1 looked at for the standfirst. */
const NEAR_TITLE = 40;

/**
 * A copy of the page's standfirst (its dek under the headline), told by the page's meta
 * description: the first block after the h1 whose whole text is the description's. Sites write
 * the dek once and serve it as both; a block elsewhere that says it (a teaser in the footer) is
 * not the dek, nor is a description no block says whole. Taken before Readability, which often
 * leaves the dek out with the header it sits in.
 */
export function standfirstBlock(document: Document, description: string): Element | null {
  const wanted = comparable(description);
  const heading = document.querySelector('h1');
  if (!heading || wanted.length < MIN_STANDFIRST || description.length > MAX_STANDFIRST) return null;
  // In page order, from the h1 on; a dek sits near its title, not a screen of blocks below it.
  let seen = -1;
  for (const block of Array.from(document.body?.querySelectorAll('h1, p, div, h2, span') ?? [])) {
    if (block === heading) seen = 0;
    if (seen < 0 || block === heading) continue;
    if (++seen > NEAR_TITLE) break;
    if (comparable(block.textContent ?? '') === wanted) return block.cloneNode(true) as Element;
  }
  return null;
}
