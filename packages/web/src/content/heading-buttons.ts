/**
 * Headings that are not what they look like, mended before extraction.
 *
 * Accordion headings: the WAI-ARIA accordion pattern puts each section's title in a button inside
 * its heading (`<h3><button aria-expanded="true">Specifications</button></h3>`). Buttons are
 * controls and go before extraction; this one's text is the section's heading, so the heading
 * keeps it. Only a button that is all of its heading's text is unwrapped.
 */
import { retag, textOf } from './dom';

/** Longer than any headline: a heading's one paragraph of this many characters is a paragraph. */
const HEADLINE_LENGTH = 150;

export function unwrapHeadingButtons(root: ParentNode): void {
  for (const button of Array.from(root.querySelectorAll('h1 > button, h2 > button, h3 > button, h4 > button, h5 > button, h6 > button'))) {
    const heading = button.parentElement;
    const text = textOf(button);
    if (!heading || !text || textOf(heading) !== text) continue;
    // Icons and hidden labels inside the button are removed with the rest of the non-content later.
    while (button.firstChild) heading.insertBefore(button.firstChild, button);
    button.remove();
  }
}

/** Blocks a heading's content model has no room for: a heading holding them is a box of text. */
const PROSE_BLOCKS = 'p, ul, ol, dl, blockquote, pre, table';

/**
 * A heading holding paragraphs (Flickr writes a photo's whole description as
 * `<h2 class="photo-desc"><p>...</p><p>...</p></h2>`) is body text styled large, not a heading:
 * it becomes a `<div>`, so its paragraphs are read as paragraphs, in markdown too, and no rule
 * that drops a trailing or lone heading takes them with it. A heading wrapping its one short line
 * in a `<p>` (`<h1><p>Title</p></h1>`) stays a heading.
 */
export function demoteProseHeadings(root: ParentNode): void {
  for (const heading of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const blocks = heading.querySelectorAll(PROSE_BLOCKS);
    if (blocks.length === 0 || (blocks.length === 1 && blocks[0]?.tagName === 'P' && textOf(heading).length <= HEADLINE_LENGTH)) continue;
    const attributes = Array.from(heading.attributes, ({ name, value }) => ({ name, value }));
    const box = retag(heading, 'div');
    for (const { name, value } of attributes) box.setAttribute(name, value);
  }
}
